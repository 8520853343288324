import type { AppInfo } from '@/lib/domain/realms/app-info';
import type { SignInMethods } from './login-outcome';

/** What the hosted pages offer, from the realm's settings (the same values GET /api/app-info shows). */
export function signInMethods(info: AppInfo): SignInMethods {
  const s = info.SignIn;
  return {
    password: s.Password && !s.PasswordlessOnly,
    passkey: s.Passkeys,
    emailCode: s.EmailOtp,
    magicLink: s.MagicLink,
    register: info.SelfRegistration.Posture === 'ExplicitEndpoint',
  };
}

/** Where sign-in continues without a `?redirect=`: the console on the control plane, else /account. */
export function defaultContinuation(realm: { isControlPlane: boolean }): string {
  return realm.isControlPlane ? '/console' : '/account';
}
