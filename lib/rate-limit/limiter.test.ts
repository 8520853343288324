import { describe, expect, it } from 'vitest';
import { consumeRateLimit, effectiveLimit, refundRateLimit, resetRateLimit } from './limiter';
import { rateLimitPolicies } from './policies';

describe('consumeRateLimit', () => {
  it('allows the ceiling, then answers 429 with the policy and dimension', async () => {
    const realm = `r-${Math.random()}`;
    for (let i = 0; i < 10; i++) await consumeRateLimit('bootstrap', 'source', realm, '10.0.0.1');
    await expect(consumeRateLimit('bootstrap', 'source', realm, '10.0.0.1')).rejects.toMatchObject({
      status: 429,
      extensions: { error: 'rate_limited', policy: 'bootstrap', dimension: 'source' },
    });
    // Another address and another realm have their own counters.
    await expect(consumeRateLimit('bootstrap', 'source', realm, '10.0.0.2')).resolves.toBeUndefined();
    await expect(consumeRateLimit('bootstrap', 'source', `${realm}x`, '10.0.0.1')).resolves.toBeUndefined();
  });

  it('ignores dimensions a policy does not limit, and can reset a key', async () => {
    const realm = `r-${Math.random()}`;
    for (let i = 0; i < 20; i++) await consumeRateLimit('bootstrap', 'target', realm, 'x');
    for (let i = 0; i < 10; i++) await consumeRateLimit('login', 'target', realm, 'Alice');
    await resetRateLimit('login', 'target', realm, 'alice');
    await expect(consumeRateLimit('login', 'target', realm, 'ALICE')).resolves.toBeUndefined();
  });
});

describe('refundRateLimit', () => {
  it('gives back a hit, so hits that were refunded never add up to the ceiling', async () => {
    const realm = `r-${Math.random()}`;
    // mfa-login allows 5 per user: twenty successes (each refunded) and four failures still pass.
    for (let i = 0; i < 20; i++) {
      await consumeRateLimit('mfa-login', 'target', realm, 'u1');
      await refundRateLimit('mfa-login', 'target', realm, 'u1');
    }
    for (let i = 0; i < 4; i++) await consumeRateLimit('mfa-login', 'target', realm, 'u1');
    await expect(consumeRateLimit('mfa-login', 'target', realm, 'u1')).resolves.toBeUndefined();
    await expect(consumeRateLimit('mfa-login', 'target', realm, 'u1')).rejects.toMatchObject({ status: 429 });
  });
});

describe('the app dimension', () => {
  it('every public auth policy that mails or checks a credential has an App ceiling, ten times its source one', () => {
    const mailOrCredential = [
      'login',
      'mfa-login',
      'forgot-password',
      'email-verification',
      'email-otp-request',
      'email-otp-login',
      'magic-link-request',
      'magic-link-login',
      'passkey-login',
      'register',
      'register-verify',
      'invite-code-redeem',
    ] as const;
    for (const p of mailOrCredential) {
      const policy = rateLimitPolicies[p];
      expect(policy.app, p).toEqual({ points: policy.source.points * 10, durationSeconds: policy.source.durationSeconds });
    }
  });

  it('takes a realm override, and answers 429 with dimension app', async () => {
    const overrides = { 'forgot-password': { App: { Points: 2, DurationSeconds: 60 } } };
    expect(effectiveLimit('forgot-password', 'app', overrides)).toEqual({ points: 2, durationSeconds: 60 });
    expect(effectiveLimit('forgot-password', 'source', overrides)).toEqual(rateLimitPolicies['forgot-password'].source);
    const realm = `r-${Math.random()}`;
    for (let i = 0; i < 2; i++) await consumeRateLimit('forgot-password', 'app', realm, 'app-1', overrides);
    await expect(consumeRateLimit('forgot-password', 'app', realm, 'app-1', overrides)).rejects.toMatchObject({
      status: 429,
      extensions: { error: 'rate_limited', policy: 'forgot-password', dimension: 'app' },
    });
    await expect(consumeRateLimit('forgot-password', 'app', realm, 'app-2', overrides)).resolves.toBeUndefined();
  });
});
