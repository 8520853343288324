import type { emailOtpStatusSchema } from '@/lib/domain/email-otp/schemas';
import type { mfaSetupSchema, mfaStatusSchema } from '@/lib/domain/mfa/schemas';
import type { externalLinkSchema, externalLoginSchema, pendingLinkSchema, startLinkAnswerSchema } from '@/lib/domain/login-providers/schemas';
import type { passkeySchema } from '@/lib/domain/passkeys/schemas';
import { profileFieldsSchema, type ChangeRequestStatus, type changeRequestSchema, type ownRequestsSchema } from '@/lib/domain/profile-requests/schemas';
import type { appInfoSchema } from '@/lib/domain/realms/schemas';
import type { browserSessionSchema, clientSessionSchema, mySessionsSchema } from '@/lib/domain/sessions/schemas';
import type { WireOf } from '@/lib/http/wire';

// Wire shapes of the self-service account routes this area reads, derived from the response schemas
// the API parses its answers through (dates arrive as ISO strings, nulls are omitted).
export type { ChangeRequestStatus };
export type ProfileFields = WireOf<typeof profileFieldsSchema>;
export type ChangeRequest = WireOf<typeof changeRequestSchema>;
export type OwnRequests = WireOf<typeof ownRequestsSchema>;
export type MfaStatus = WireOf<typeof mfaStatusSchema>;
export type MfaSetup = WireOf<typeof mfaSetupSchema>;
export type EmailOtpStatus = WireOf<typeof emailOtpStatusSchema>;
export type Passkey = WireOf<typeof passkeySchema>;
/** GET /api/auth/sessions (spec 4.6). */
export type BrowserSession = WireOf<typeof browserSessionSchema>;
export type ClientSession = WireOf<typeof clientSessionSchema>;
export type MySessions = WireOf<typeof mySessionsSchema>;
export type AppInfo = WireOf<typeof appInfoSchema>;
/** GET /api/account/external-links: the person's linked upstream identities (spec 3.6). */
export type ExternalLink = WireOf<typeof externalLinkSchema>;
/** GET /api/account/external-logins: the realm's OIDC and SAML entry points. */
export type ExternalLogin = WireOf<typeof externalLoginSchema>;
/** POST /api/account/external-links/start: where to sign in at the upstream to link it. */
export type StartedLink = WireOf<typeof startLinkAnswerSchema>;
/** GET /api/account/external-links/pending: the upstream account waiting for confirmation. */
export type PendingLink = WireOf<typeof pendingLinkSchema>;

export const accountKeys = {
  profileRequest: ['account', 'profile-request'] as const,
  mfa: ['account', 'mfa'] as const,
  emailOtp: ['account', 'email-otp'] as const,
  passkeys: ['account', 'passkeys'] as const,
  appInfo: ['app-info'] as const,
  sessions: ['account', 'sessions'] as const,
  externalLinks: ['account', 'external-links'] as const,
  pendingLink: ['account', 'external-links', 'pending'] as const,
  externalLogins: ['external-logins'] as const,
};

export const STATUS_LABELS: Record<ChangeRequestStatus, string> = {
  AwaitingEmailVerification: 'Waiting for you to confirm the new address',
  Open: 'Waiting for an administrator',
  Approved: 'Approved',
  Rejected: 'Rejected',
  Cancelled: 'Cancelled',
};

export const FIELD_LABELS: Record<keyof ProfileFields, string> = { Firstname: 'First name', Lastname: 'Last name', Acronym: 'Acronym', Email: 'E-mail' };
export const PROFILE_FIELDS = profileFieldsSchema.keyof().options;

/** "" in a request means "clear the field". */
export function shownValue(v: string | undefined | null): string {
  return v === undefined || v === null || v === '' ? '(empty)' : v;
}
