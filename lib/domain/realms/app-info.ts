import type { DomainContext } from '../context';

// GET /api/app-info (spec 4.7): anonymous public metadata of the realm. Branding and registration
// fields are the platform defaults until realm settings and per-App overrides exist (issue 3).
export type AppInfo = {
  Realm: string;
  DisplayName: string;
  Description: string | null;
  PrimaryDomain: string;
  IsControlPlane: boolean;
  Branding: { ProductName: string; PrimaryColor: string; LogoUrl: string | null };
  RegistrationFields: { Email: 'Required'; Username: FieldPolicy; Firstname: FieldPolicy; Lastname: FieldPolicy };
  SelfRegistration: { Posture: 'Off' | 'JitOnOtp' | 'ExplicitEndpoint' };
};
type FieldPolicy = 'Off' | 'Optional' | 'Required';

export function appInfo(ctx: DomainContext): AppInfo {
  const r = ctx.realm;
  return {
    Realm: r.slug,
    DisplayName: r.displayName,
    Description: r.description,
    PrimaryDomain: r.primaryDomain,
    IsControlPlane: r.isControlPlane,
    Branding: { ProductName: r.displayName, PrimaryColor: '#1f4f8f', LogoUrl: null },
    RegistrationFields: { Email: 'Required', Username: 'Optional', Firstname: 'Optional', Lastname: 'Optional' },
    SelfRegistration: { Posture: 'Off' },
  };
}
