import type { DomainContext } from '../../realm/context';
import { settingsInContext } from '../apps/app-settings';
import type { FieldPolicy } from './fields';

// GET /api/account/self-registration-info (spec 4.1, 5.3): anonymous; what a sign-up form needs, as
// the App of this host sets it (its SelfRegistration and RegistrationFields over the realm's).
export type SelfRegistrationInfo = {
  Posture: 'Off' | 'JitOnOtp' | 'ExplicitEndpoint';
  RequireInviteCode: boolean;
  RegistrationFields: { Email: 'Required'; Username: FieldPolicy; Firstname: FieldPolicy; Lastname: FieldPolicy };
  PasswordPolicy: { MinLength: number };
};

export async function selfRegistrationInfo(ctx: DomainContext): Promise<SelfRegistrationInfo> {
  const s = await settingsInContext(ctx);
  return {
    Posture: s.SelfRegistration.Posture,
    RequireInviteCode: s.SelfRegistration.RequireInviteCode,
    RegistrationFields: { Email: 'Required', ...s.RegistrationFields },
    PasswordPolicy: { MinLength: s.PasswordPolicy.MinLength },
  };
}
