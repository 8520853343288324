// Where a browser starts an external sign-in (CONTRACT.md "External identity"): OIDC at its start
// route, SAML at the SP's login route (named by slug), Kerberos at the negotiate route. Each carries
// the continuation as `returnUrl`, which the server validates again (lib/web/continuation.ts).
// These are sign-ins only: linking an account starts from the account page with a POST and ends
// with a confirmation (components/account/linked-accounts-section.tsx, docs/external-identity.md).

export type ExternalEntryPoint = { Id: string; Name: string; Kind: 'Oidc' | 'Saml' | 'Kerberos'; Slug?: string | null };

/** The URL a "Continue with …" link navigates to, or null when a SAML provider lacks its slug. */
export function externalEntryHref(entry: ExternalEntryPoint, returnUrl: string): string | null {
  const query = `?returnUrl=${encodeURIComponent(returnUrl)}`;
  if (entry.Kind === 'Oidc') return `/api/account/external-login/${encodeURIComponent(entry.Id)}/start${query}`;
  if (entry.Kind === 'Kerberos') return `/api/account/negotiate/${encodeURIComponent(entry.Id)}${query}`;
  return entry.Slug ? `/saml/${encodeURIComponent(entry.Slug)}/login${query}` : null;
}

/** The notices of a failed external sign-in (`/login?error=…`, lib/api/external-login-endpoints.ts). */
export const EXTERNAL_NOTICES = ['external-failed', 'external-refused', 'external-unavailable'] as const;
export type ExternalNotice = (typeof EXTERNAL_NOTICES)[number];

export function asExternalNotice(value: unknown): ExternalNotice | null {
  return EXTERNAL_NOTICES.find((n) => n === value) ?? null;
}

/** Fixed texts: the reason itself is in the security log, never in the URL. */
export const EXTERNAL_NOTICE_TEXT: Record<ExternalNotice, { title: string; body: string }> = {
  'external-failed': {
    title: 'Signing in with that provider did not work',
    body: 'The sign-in could not be completed. Try again, or choose another way to sign in.',
  },
  'external-refused': {
    title: 'That account cannot be used here',
    body: 'The account at your identity provider may not sign in here, or it is already linked to someone else. Ask your administrator if you think this is a mistake.',
  },
  'external-unavailable': {
    title: 'The identity provider cannot be reached',
    body: 'It may be down at the moment. Try again later, or choose another way to sign in.',
  },
};
