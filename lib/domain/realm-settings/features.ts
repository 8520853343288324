import { z } from 'zod';
import { defineFlagClass, plain } from '../flags/registry';
import { realmSettings } from './realm-settings';
import type { RealmSettings } from './schema';

// The realm's feature switches as the flag class `RealmFeatures` (CONTRACT.md "Real-time hub and
// flags", docs/flags.md). Each is read from the realm settings (cached: no query on a hit), and the
// product reads them through this class, as the evaluation routes do, so both always agree.

/** Where each switch lives in the settings; `AppFeatures` (lib/domain/apps) resolves the same table for an App. */
export const FEATURE_SWITCHES = {
  PositionTerminals: (s: RealmSettings) => s.Features.PositionTerminals,
  NativeGrants: (s: RealmSettings) => s.NativeGrants.Enabled,
  MagicLink: (s: RealmSettings) => s.SignIn.MagicLink,
  Passkeys: (s: RealmSettings) => s.SignIn.Passkeys,
  EmailOtp: (s: RealmSettings) => s.SignIn.EmailOtp,
  Dcr: (s: RealmSettings) => s.Dcr.Enabled,
  Cimd: (s: RealmSettings) => s.Cimd.Enabled,
} as const;

export type FeatureSwitch = keyof typeof FEATURE_SWITCHES;

function realmFeatureProperties() {
  const entries = Object.entries(FEATURE_SWITCHES).map(([name, read]) => [name, plain(z.boolean(), async (ctx) => read(await realmSettings(ctx.realm)))]);
  return Object.fromEntries(entries) as { [K in FeatureSwitch]: ReturnType<typeof plain<z.ZodBoolean>> };
}

export const RealmFeatures = defineFlagClass('RealmFeatures', realmFeatureProperties());
