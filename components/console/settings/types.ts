// GET/PUT /api/realm-settings (lib/domain/realm-settings/schema.ts): the realm's effective settings.
export type FieldPolicy = 'Off' | 'Optional' | 'Required';
export type Limit = { Points: number; DurationSeconds: number };
export type RealmSettings = {
  SelfRegistration: { Posture: 'Off' | 'JitOnOtp' | 'ExplicitEndpoint'; RequireInviteCode: boolean };
  RegistrationFields: { Username: FieldPolicy; Firstname: FieldPolicy; Lastname: FieldPolicy };
  SignIn: { Password: boolean; PasswordlessOnly: boolean; EmailOtp: boolean; MagicLink: boolean; Passkeys: boolean };
  TwoFactor: { Required: boolean; GracePeriodDays: number };
  PasswordPolicy: { MinLength: number; RejectCommon: boolean; RejectContextual: boolean };
  Branding: { ProductName?: string | null; PrimaryColor: string; LogoUrl?: string | null };
  RateLimits: Record<string, Partial<Record<'Source' | 'Target' | 'Client' | 'App', Limit>>>;
};

export const settingsKey = ['realm-settings'] as const;
