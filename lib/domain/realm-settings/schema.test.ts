import { describe, expect, it } from 'vitest';
import { DEFAULT_REALM_SETTINGS, realmSettingsSchema } from './schema';

describe('realm settings', () => {
  it('fills every default from an empty document', () => {
    expect(DEFAULT_REALM_SETTINGS.SelfRegistration.Posture).toBe('Off');
    expect(DEFAULT_REALM_SETTINGS.SignIn).toEqual({ Password: true, PasswordlessOnly: false, EmailOtp: true, MagicLink: false, Passkeys: true });
    expect(DEFAULT_REALM_SETTINGS.PasswordPolicy.MinLength).toBe(10);
    expect(DEFAULT_REALM_SETTINGS.RateLimits).toEqual({});
  });

  it('keeps what a sparse document sets and defaults the rest of the section', () => {
    const s = realmSettingsSchema.parse({ SignIn: { MagicLink: true }, RateLimits: { login: { Source: { Points: 5, DurationSeconds: 60 } } } });
    expect(s.SignIn.MagicLink).toBe(true);
    expect(s.SignIn.Password).toBe(true);
    expect(s.RateLimits.login.Source).toEqual({ Points: 5, DurationSeconds: 60 });
  });

  it('refuses out-of-range values', () => {
    expect(realmSettingsSchema.safeParse({ PasswordPolicy: { MinLength: 4 } }).success).toBe(false);
    expect(realmSettingsSchema.safeParse({ Branding: { PrimaryColor: 'red' } }).success).toBe(false);
  });
});
