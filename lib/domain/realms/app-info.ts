import { realmSettings } from '../realm-settings/realm-settings';
import type { z } from 'zod';
import type { DomainContext } from '../../realm/context';
import type { appInfoSchema } from './schemas';

// GET /api/app-info (spec 4.7): anonymous public metadata of the realm, its branding and the
// resolved registration policy (realm settings; per-App overrides arrive with App settings).
export type AppInfo = z.infer<typeof appInfoSchema>;

export async function appInfo(ctx: DomainContext): Promise<AppInfo> {
  const r = ctx.realm;
  const s = await realmSettings(r);
  return {
    Realm: r.slug,
    DisplayName: r.displayName,
    Description: r.description,
    PrimaryDomain: r.primaryDomain,
    IsControlPlane: r.isControlPlane,
    Branding: { ProductName: s.Branding.ProductName || r.displayName, PrimaryColor: s.Branding.PrimaryColor, LogoUrl: s.Branding.LogoUrl ?? null },
    RegistrationFields: { Email: 'Required', ...s.RegistrationFields },
    SelfRegistration: { Posture: s.SelfRegistration.Posture, RequireInviteCode: s.SelfRegistration.RequireInviteCode },
    SignIn: s.SignIn,
  };
}
