import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../auth/passwords';
import type { RealmDb } from '../../db/types';
import { tempRealmDb } from '../../testing/temp-realm-db';
import { unitRealm } from '../../testing/unit-realm';
import { domainContext } from '../../realm/context';
import { issueSecret, redeemToken } from '../one-time-secrets/one-time-secrets';
import { insertUser } from '../users/insert-user';
import { resetLinkState } from './reset-link';

// The reset page's look at its link: the address for an open link, the reason for a dead one, and
// the token left unspent either way.
let db: RealmDb;
let dispose: () => Promise<void>;
let ctx: ReturnType<typeof domainContext>;
let userId: string;

beforeAll(async () => {
  let name: string;
  ({ db, name, dispose } = await tempRealmDb());
  ctx = domainContext(unitRealm(name), { kind: 'anonymous' });
  ({ id: userId } = await insertUser(db, ctx.realm, { userName: 'ada', email: 'Ada@Example.test', passwordHash: await hashPassword('old password 1234') }));
});
afterAll(async () => dispose());

describe('resetLinkState', () => {
  it('names the address of an open link without spending it', async () => {
    const { secret } = await issueSecret(db, { purpose: 'password-reset', userId, email: 'Ada@Example.test' });
    expect(await resetLinkState(ctx, secret)).toEqual({ state: 'open', email: 'ada@example.test' });
    expect((await redeemToken(db, 'password-reset', secret, { consume: false })).ok).toBe(true);
  });

  it('says why a link is dead, and never names an address then', async () => {
    const expired = await issueSecret(db, { purpose: 'password-reset', userId, email: 'ada@example.test', ttlMinutes: -1 });
    expect(await resetLinkState(ctx, expired.secret)).toEqual({ state: 'expired' });
    const used = await issueSecret(db, { purpose: 'password-reset', userId, email: 'ada@example.test' });
    await redeemToken(db, 'password-reset', used.secret);
    expect(await resetLinkState(ctx, used.secret)).toEqual({ state: 'used' });
    expect(await resetLinkState(ctx, 'not-a-token')).toEqual({ state: 'invalid' });
    const otherPurpose = await issueSecret(db, { purpose: 'email-verification', userId, email: 'ada@example.test' });
    expect(await resetLinkState(ctx, otherPurpose.secret)).toEqual({ state: 'invalid' });
  });

  it('treats a link to an address the account no longer has as dead', async () => {
    const { id } = await insertUser(db, ctx.realm, { userName: 'mover', email: 'before@example.test', passwordHash: await hashPassword('old password 1234') });
    const { secret } = await issueSecret(db, { purpose: 'password-reset', userId: id, email: 'before@example.test' });
    await db.user.update({ where: { id }, data: { email: 'after@example.test', emailNormalized: 'after@example.test' } });
    expect(await resetLinkState(ctx, secret)).toEqual({ state: 'invalid' });
  });
});
