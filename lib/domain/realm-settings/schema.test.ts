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

  it('accepts rate-limit overrides of every dimension, App and Client included', () => {
    const one = { Points: 50, DurationSeconds: 60 };
    const s = realmSettingsSchema.parse({ RateLimits: { login: { Source: one, Target: one, Client: one, App: one } } });
    expect(s.RateLimits.login).toEqual({ Source: one, Target: one, Client: one, App: one });
    expect(realmSettingsSchema.safeParse({ RateLimits: { login: { App: { Points: 0, DurationSeconds: 60 } } } }).success).toBe(false);
  });
});
