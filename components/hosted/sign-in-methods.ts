import type { AppInfo } from '@/lib/domain/realms/app-info';
import type { ExternalEntryPoint } from './external-entry';
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

/**
 * The external sign-in buttons: the realm's active OIDC and SAML providers (what the public list
 * GET /api/account/external-logins answers) then its Kerberos ones (read by the page on the server).
 */
export function externalEntryPoints(
  logins: { Id: string; Name: string; Kind: 'Oidc' | 'Saml'; Slug?: string | null }[],
  kerberos: { Id: string; Name: string }[],
): ExternalEntryPoint[] {
  return [...logins, ...kerberos.map((k) => ({ ...k, Kind: 'Kerberos' as const }))];
}
