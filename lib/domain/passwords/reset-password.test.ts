import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import type { RealmDb } from '../../db/types';
import { tempRealmDb } from '../../testing/temp-realm-db';
import { errorCodeOf, unitRealm } from '../../testing/unit-realm';
import { domainContext } from '../../realm/context';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { insertUser } from '../users/insert-user';
import { resetPassword } from './reset-password';

// The reset rules that HTTP tests cannot reach in time: a token past its lifetime (30 minutes).
let db: RealmDb;
let dispose: () => Promise<void>;
let ctx: ReturnType<typeof domainContext>;
let userId: string;
const NEW_PASSWORD = 'correct horse battery staple 42';

beforeAll(async () => {
  let name: string;
  ({ db, name, dispose } = await tempRealmDb());
  ctx = domainContext(unitRealm(name), { kind: 'anonymous' });
  ({ id: userId } = await insertUser(db, ctx.realm, { userName: 'ada', email: 'Ada@Example.test', passwordHash: await hashPassword('old password 1234') }));
});
afterAll(async () => dispose());

describe('resetPassword', () => {
  it('refuses an expired token with Token.Expired and leaves the password alone', async () => {
    const { secret } = await issueSecret(db, { purpose: 'password-reset', userId, email: 'ada@example.test', ttlMinutes: -1 });
    expect(await errorCodeOf(resetPassword(ctx, { email: 'ada@example.test', token: secret, newPassword: NEW_PASSWORD }))).toBe('Token.Expired');
    const row = await db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(await verifyPassword(row.passwordHash!, 'old password 1234')).toBe(true);
  });

  it('refuses a token of another purpose, and one sent with another address', async () => {
    const other = await issueSecret(db, { purpose: 'email-verification', userId, email: 'ada@example.test' });
    expect(await errorCodeOf(resetPassword(ctx, { email: 'ada@example.test', token: other.secret, newPassword: NEW_PASSWORD }))).toBe('Token.Invalid');
    const mine = await issueSecret(db, { purpose: 'password-reset', userId, email: 'ada@example.test' });
    expect(await errorCodeOf(resetPassword(ctx, { email: 'eve@example.test', token: mine.secret, newPassword: NEW_PASSWORD }))).toBe('Token.Invalid');
  });

  it('refuses a link mailed to an address the account no longer has', async () => {
    const { id } = await insertUser(db, ctx.realm, { userName: 'mover', email: 'before@example.test', passwordHash: await hashPassword('old password 1234') });
    const { secret } = await issueSecret(db, { purpose: 'password-reset', userId: id, email: 'before@example.test' });
    await db.user.update({ where: { id }, data: { email: 'after@example.test', emailNormalized: 'after@example.test' } });
    expect(await errorCodeOf(resetPassword(ctx, { email: 'after@example.test', token: secret, newPassword: NEW_PASSWORD }))).toBe('Token.Invalid');
  });

  it('keeps the token when the new password is too weak, so the link can be retried', async () => {
    const { secret } = await issueSecret(db, { purpose: 'password-reset', userId, email: 'ada@example.test', data: { redirect: '/console' } });
    const weak = await resetPassword(ctx, { email: 'ADA@example.test', token: secret, newPassword: 'short' }).catch(
      (e: { code: string; errors?: Record<string, string[]> }) => e,
    );
    expect(weak).toMatchObject({ code: 'User.PasswordTooWeak' });
    expect(Object.keys((weak as { errors: object }).errors)).toEqual(['NewPassword']);
    expect(await resetPassword(ctx, { email: 'ADA@example.test', token: secret, newPassword: NEW_PASSWORD })).toEqual({ redirect: '/console' });
    expect(await errorCodeOf(resetPassword(ctx, { email: 'ada@example.test', token: secret, newPassword: NEW_PASSWORD }))).toBe('Token.Used');
  });

  it('answers no continuation when the stored one is no longer safe', async () => {
    const { secret } = await issueSecret(db, { purpose: 'password-reset', userId, email: 'ada@example.test', data: { redirect: '//evil.test' } });
    expect(await resetPassword(ctx, { email: 'ada@example.test', token: secret, newPassword: `${NEW_PASSWORD}!` })).toEqual({ redirect: undefined });
  });
});
