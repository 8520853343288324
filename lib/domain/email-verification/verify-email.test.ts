import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealmDb } from '../../db/types';
import { tempRealmDb } from '../../testing/temp-realm-db';
import { errorCodeOf, unitRealm } from '../../testing/unit-realm';
import { domainContext } from '../../realm/context';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { insertUser } from '../users/insert-user';
import { verifyEmail } from './verify-email';

// Verification rules HTTP tests cannot reach in time (a link past its 24 hours) or set up through
// the API alone (a token bound to an address the user no longer has).
let db: RealmDb;
let dispose: () => Promise<void>;
let ctx: ReturnType<typeof domainContext>;
beforeAll(async () => {
  let name: string;
  ({ db, name, dispose } = await tempRealmDb());
  ctx = domainContext(unitRealm(name), { kind: 'anonymous' });
});
afterAll(async () => dispose());

const confirmed = async (id: string) => (await db.user.findUniqueOrThrow({ where: { id } })).emailConfirmed;

describe('verifyEmail', () => {
  it('refuses an expired link with Token.Expired', async () => {
    const { id } = await insertUser(db, ctx.realm, { userName: 'exp', email: 'exp@example.test' });
    const { secret } = await issueSecret(db, { purpose: 'email-verification', userId: id, email: 'exp@example.test', ttlMinutes: -1 });
    expect(await errorCodeOf(verifyEmail(ctx, secret))).toBe('Token.Expired');
    expect(await confirmed(id)).toBe(false);
  });

  it('refuses (and spends) a link sent to an address the user no longer has', async () => {
    const { id } = await insertUser(db, ctx.realm, { userName: 'moved', email: 'old@example.test' });
    const { secret } = await issueSecret(db, { purpose: 'email-verification', userId: id, email: 'old@example.test' });
    await db.user.update({ where: { id }, data: { email: 'new@example.test', emailNormalized: 'new@example.test' } });
    expect(await errorCodeOf(verifyEmail(ctx, secret))).toBe('Token.Invalid');
    expect(await confirmed(id)).toBe(false);
    // Back on the old address, the spent link still proves nothing.
    await db.user.update({ where: { id }, data: { email: 'old@example.test', emailNormalized: 'old@example.test' } });
    expect(await errorCodeOf(verifyEmail(ctx, secret))).toBe('Token.Used');
  });

  it('confirms the address the link went to, once; case of the address does not matter', async () => {
    const { id } = await insertUser(db, ctx.realm, { userName: 'ok', email: 'Ok@Example.test' });
    const { secret } = await issueSecret(db, { purpose: 'email-verification', userId: id, email: 'ok@example.test' });
    expect(await errorCodeOf(verifyEmail(ctx, secret))).toBe('ok');
    expect(await confirmed(id)).toBe(true);
    expect(await errorCodeOf(verifyEmail(ctx, secret))).toBe('Token.Used');
  });

  it('refuses tokens of other purposes and unknown tokens', async () => {
    const { id } = await insertUser(db, ctx.realm, { userName: 'other', email: 'other@example.test' });
    const { secret } = await issueSecret(db, { purpose: 'password-reset', userId: id, email: 'other@example.test' });
    expect(await errorCodeOf(verifyEmail(ctx, secret))).toBe('Token.Invalid');
    expect(await errorCodeOf(verifyEmail(ctx, 'x'.repeat(43)))).toBe('Token.Invalid');
  });
});
