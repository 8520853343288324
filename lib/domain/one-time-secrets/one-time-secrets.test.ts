import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealmDb } from '../../db/types';
import { tempRealmDb } from '../../testing/temp-realm-db';
import { issueSecret, redeemCode, redeemToken } from './one-time-secrets';

let db: RealmDb;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ db, dispose } = await tempRealmDb());
});
afterAll(async () => dispose());

describe('tokens', () => {
  it('redeem once, then report used; unknown tokens are invalid; nothing but a hash is stored', async () => {
    const { secret } = await issueSecret(db, { purpose: 'password-reset', userId: 'u1', data: { redirect: '/x' } });
    expect(secret.length).toBeGreaterThanOrEqual(43);
    const rows = await db.oneTimeSecret.findMany({ where: { userId: 'u1' } });
    expect(JSON.stringify(rows)).not.toContain(secret);
    const first = await redeemToken(db, 'password-reset', secret);
    expect(first).toMatchObject({ ok: true, record: { userId: 'u1', data: { redirect: '/x' } } });
    expect(await redeemToken(db, 'password-reset', secret)).toEqual({ ok: false, reason: 'used' });
    expect(await redeemToken(db, 'password-reset', 'nope')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('is bound to its purpose and expires', async () => {
    const { secret } = await issueSecret(db, { purpose: 'magic-link', userId: 'u2', ttlMinutes: -1 });
    expect(await redeemToken(db, 'password-reset', secret)).toEqual({ ok: false, reason: 'invalid' });
    expect(await redeemToken(db, 'magic-link', secret)).toEqual({ ok: false, reason: 'expired' });
  });

  it('replacePrevious revokes the earlier link', async () => {
    const a = await issueSecret(db, { purpose: 'email-verification', userId: 'u3' });
    const b = await issueSecret(db, { purpose: 'email-verification', userId: 'u3', replacePrevious: true });
    expect((await redeemToken(db, 'email-verification', a.secret)).ok).toBe(false);
    expect((await redeemToken(db, 'email-verification', b.secret)).ok).toBe(true);
  });
});

describe('codes', () => {
  it('accepts the right code once and counts wrong ones', async () => {
    const { secret } = await issueSecret(db, { purpose: 'email-otp', userId: 'u4' });
    expect(secret).toMatch(/^\d{6}$/);
    const wrong = secret === '000000' ? '111111' : '000000';
    expect(await redeemCode(db, 'email-otp', { userId: 'u4' }, wrong)).toEqual({ ok: false, reason: 'invalid' });
    expect((await redeemCode(db, 'email-otp', { userId: 'u4' }, secret)).ok).toBe(true);
    expect((await redeemCode(db, 'email-otp', { userId: 'u4' }, secret)).ok).toBe(false);
  });

  it('locks after the maximum number of wrong tries, even for the right code', async () => {
    const { secret } = await issueSecret(db, { purpose: 'email-otp', email: 'A@B.test' });
    const wrong = secret === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) expect((await redeemCode(db, 'email-otp', { email: 'a@b.test' }, wrong)).ok).toBe(false);
    expect(await redeemCode(db, 'email-otp', { email: 'a@b.test' }, wrong)).toEqual({ ok: false, reason: 'too-many-attempts' });
    expect(await redeemCode(db, 'email-otp', { email: 'a@b.test' }, secret)).toEqual({ ok: false, reason: 'too-many-attempts' });
  });
});
