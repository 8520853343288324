import type { z } from 'zod';
import type { DomainContext } from '../../realm/context';
import { appInContext, settingsInContext } from '../apps/app-settings';
import type { appInfoSchema } from './schemas';

// GET /api/app-info (spec 4.7): anonymous public metadata of the realm, and the branding and
// registration policy that apply on this host: the realm settings with the Settings overrides of
// the App the host routes to (its `Origin` subdomain; any other host is the built-in App's).
export type AppInfo = z.infer<typeof appInfoSchema>;

export async function appInfo(ctx: DomainContext): Promise<AppInfo> {
  const r = ctx.realm;
  const [s, app] = await Promise.all([settingsInContext(ctx), appInContext(ctx)]);
  return {
    Realm: r.slug,
    DisplayName: r.displayName,
    Description: r.description,
    PrimaryDomain: r.primaryDomain,
    IsControlPlane: r.isControlPlane,
    App: app ? { Id: app.id, Slug: app.slug, DisplayName: app.displayName } : null,
    Branding: { ProductName: s.Branding.ProductName || r.displayName, PrimaryColor: s.Branding.PrimaryColor, LogoUrl: s.Branding.LogoUrl ?? null },
    RegistrationFields: { Email: 'Required', ...s.RegistrationFields },
    SelfRegistration: { Posture: s.SelfRegistration.Posture, RequireInviteCode: s.SelfRegistration.RequireInviteCode },
    SignIn: s.SignIn,
  };
}
