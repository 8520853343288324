import { describe, expect, it } from 'vitest';
import { dimensionKey, overridableDimensions, rateLimitPolicyNames } from '../../rate-limit/policies';
import { DEFAULT_REALM_SETTINGS, realmSettingsSchema, withoutStaleOverrides } from './schema';

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
    const s = realmSettingsSchema.parse({ RateLimits: { 'email-otp-request': { Source: one, Target: one, Client: one, App: one } } });
    expect(s.RateLimits['email-otp-request']).toEqual({ Source: one, Target: one, Client: one, App: one });
    expect(realmSettingsSchema.safeParse({ RateLimits: { login: { App: { Points: 0, DurationSeconds: 60 } } } }).success).toBe(false);
  });
});

describe('rate-limit overrides', () => {
  const one = { Points: 50, DurationSeconds: 60 };
  const errorsOf = (doc: unknown) => {
    const r = realmSettingsSchema.safeParse(doc);
    return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  };

  it('offers exactly the dimensions a policy counts', () => {
    expect(overridableDimensions('login')).toEqual(['source', 'target', 'app']);
    expect(overridableDimensions('reset-password')).toEqual(['source']);
    expect(overridableDimensions('email-otp-request')).toEqual(['source', 'target', 'client', 'app']);
    expect(overridableDimensions('no-such-policy')).toEqual([]);
    expect(overridableDimensions('__proto__')).toEqual([]);
  });

  it('refuses an unknown policy at its name', () => {
    expect(errorsOf({ RateLimits: { 'no-such-policy': { Source: one } } })).toEqual([
      { path: 'RateLimits.no-such-policy', message: 'There is no rate-limit policy named "no-such-policy".' },
    ]);
  });

  it('refuses a dimension the policy does not count, at that dimension', () => {
    const errors = errorsOf({ RateLimits: { 'reset-password': { Source: one, Target: one } } });
    expect(errors).toHaveLength(1);
    expect(errors[0].path).toBe('RateLimits.reset-password.Target');
    expect(errors[0].message).toMatch(/does not count by Target/);
    expect(errorsOf({ RateLimits: { login: { Client: one } } }).map((e) => e.path)).toEqual(['RateLimits.login.Client']);
  });

  it('refuses a dimension name that is none of the four', () => {
    expect(realmSettingsSchema.safeParse({ RateLimits: { login: { Source: one, Mailbox: one } } }).success).toBe(false);
  });

  it('accepts every dimension of every policy that counts it', () => {
    for (const policy of rateLimitPolicyNames) {
      const limits = Object.fromEntries(overridableDimensions(policy).map((d) => [dimensionKey(d), one]));
      expect(realmSettingsSchema.safeParse({ RateLimits: { [policy]: limits } }).success, policy).toBe(true);
    }
  });

  it('drops stale stored overrides on read and keeps the valid ones and the other sections', () => {
    const stored = {
      SignIn: { MagicLink: true },
      RateLimits: {
        'reset-password': { Source: one, Target: one },
        'gone-policy': { Source: one },
        login: { Source: { Points: 0, DurationSeconds: 60 }, Target: one, Mailbox: one },
        register: 'not an object',
        'change-password': { Client: one },
      },
    };
    expect(realmSettingsSchema.safeParse(stored).success).toBe(false);
    const read = realmSettingsSchema.parse(withoutStaleOverrides(stored));
    expect(read.SignIn.MagicLink).toBe(true);
    expect(read.RateLimits).toEqual({ 'reset-password': { Source: one }, login: { Target: one } });
  });

  it('leaves a document without overrides as it is', () => {
    expect(withoutStaleOverrides({ SignIn: { MagicLink: true } })).toEqual({ SignIn: { MagicLink: true } });
    expect(withoutStaleOverrides(null)).toBeNull();
  });
});
