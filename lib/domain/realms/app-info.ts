import { realmSettings } from '../realm-settings/realm-settings';
import type { DomainContext } from '../context';

// GET /api/app-info (spec 4.7): anonymous public metadata of the realm, its branding and the
// resolved registration policy (realm settings; per-App overrides arrive with App settings).
export type FieldPolicy = 'Off' | 'Optional' | 'Required';

export type AppInfo = {
  Realm: string;
  DisplayName: string;
  Description: string | null;
  PrimaryDomain: string;
  IsControlPlane: boolean;
  Branding: { ProductName: string; PrimaryColor: string; LogoUrl: string | null };
  RegistrationFields: { Email: 'Required'; Username: FieldPolicy; Firstname: FieldPolicy; Lastname: FieldPolicy };
  SelfRegistration: { Posture: 'Off' | 'JitOnOtp' | 'ExplicitEndpoint'; RequireInviteCode: boolean };
  SignIn: { Password: boolean; PasswordlessOnly: boolean; EmailOtp: boolean; MagicLink: boolean; Passkeys: boolean };
};

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
