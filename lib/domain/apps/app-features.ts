import { z } from 'zod';
import { AppError } from '../../errors/app-error';
import { contextual, defineFlagClass, type FlagContext } from '../flags/registry';
import { FEATURE_SWITCHES, type FeatureSwitch } from '../realm-settings/features';
import { appInContext, settingsForApp } from './app-settings';

// The same switches as `RealmFeatures`, resolved for one App with its Settings overrides (spec 4.7
// "Applications"): the contextual flag class `AppFeatures`, evaluated with `POST { AppId }`. An
// AppId that names no App is 404 `App.NotFound`, not the realm's value: a typo must not read as an
// answer. Both reads hit the App and settings caches (no query on a hit).

export const appFeatureInput = z.object({ AppId: z.string().min(1).max(64) });

async function resolveFor(ctx: FlagContext, appId: string, name: FeatureSwitch): Promise<boolean> {
  if (!(await appInContext({ realm: ctx.realm, appId }))) throw new AppError('App.NotFound');
  return FEATURE_SWITCHES[name](await settingsForApp(ctx.realm, appId));
}

function appFeatureProperties() {
  const names = Object.keys(FEATURE_SWITCHES) as FeatureSwitch[];
  const entries = names.map((name) => [name, contextual(z.boolean(), appFeatureInput, (ctx, input) => resolveFor(ctx, input.AppId, name))]);
  return Object.fromEntries(entries) as { [K in FeatureSwitch]: ReturnType<typeof contextual<z.ZodBoolean, typeof appFeatureInput>> };
}

export const AppFeatures = defineFlagClass('AppFeatures', appFeatureProperties());
