// Wire shapes of the self-service account routes this area reads (lib/api/*-endpoints.ts).

export type ProfileFields = { Firstname?: string; Lastname?: string; Acronym?: string; Email?: string };
export type ChangeRequestStatus = 'AwaitingEmailVerification' | 'Open' | 'Approved' | 'Rejected' | 'Cancelled';
export type ChangeRequest = {
  Id: string;
  UserId: string;
  UserName?: string;
  Status: ChangeRequestStatus;
  Changes: ProfileFields;
  Current?: ProfileFields;
  Reason?: string | null;
  DecidedAt?: string | null;
  CreatedAt: string;
  UpdatedAt?: string | null;
};
export type OwnRequests = { Open?: ChangeRequest; LastDecided?: ChangeRequest };
export type MfaStatus = { enabled: boolean; hasAuthenticator: boolean };
export type MfaSetup = { SharedKey: string; AuthenticatorUri: string; QrCodeSvg: string };
export type EmailOtpStatus = { Enabled: boolean; Email: string; EmailConfirmed: boolean };
export type Passkey = { Id: string; DisplayName: string; CreatedAt: string; LastUsedAt?: string | null; DeviceType?: string | null; BackedUp: boolean; Transports: string[] };
/** GET /api/auth/sessions (spec 4.6); dates arrive as ISO strings. */
export type BrowserSession = { Id: string; IsCurrent: boolean; CreatedAt: string; LastSeenAt: string; ExpiresAt: string; IpAddress?: string; UserAgent?: string; Methods: string[] };
export type ClientSession = { Id: string; ClientId: string; ClientName: string; Scopes: string[]; CreatedAt: string; ExpiresAt?: string };
export type MySessions = { Sessions: BrowserSession[]; ClientSessions: ClientSession[] };
export type AppInfo = {
  Realm: string;
  DisplayName: string;
  SignIn: { Password: boolean; PasswordlessOnly: boolean; EmailOtp: boolean; MagicLink: boolean; Passkeys: boolean };
};

export const accountKeys = {
  profileRequest: ['account', 'profile-request'] as const,
  mfa: ['account', 'mfa'] as const,
  emailOtp: ['account', 'email-otp'] as const,
  passkeys: ['account', 'passkeys'] as const,
  appInfo: ['app-info'] as const,
  sessions: ['account', 'sessions'] as const,
};

export const STATUS_LABELS: Record<ChangeRequestStatus, string> = {
  AwaitingEmailVerification: 'Waiting for you to confirm the new address',
  Open: 'Waiting for an administrator',
  Approved: 'Approved',
  Rejected: 'Rejected',
  Cancelled: 'Cancelled',
};

export const FIELD_LABELS: Record<keyof ProfileFields, string> = { Firstname: 'First name', Lastname: 'Last name', Acronym: 'Acronym', Email: 'E-mail' };
export const PROFILE_FIELDS = ['Firstname', 'Lastname', 'Acronym', 'Email'] as const;

/** "" in a request means "clear the field". */
export function shownValue(v: string | undefined | null): string {
  return v === undefined || v === null || v === '' ? '(empty)' : v;
}
