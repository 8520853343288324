import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../crypto/tokens';
import type { RealmDb } from '../../db/types';
import { tempRealmDb } from '../../testing/temp-realm-db';
import { errorCodeOf, unitRealm } from '../../testing/unit-realm';
import { domainContext } from '../../realm/context';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { insertUser } from '../users/insert-user';
import { verifyProfileEmail } from './verify-profile-email';

// The new-address link of a change request (spec 3.4), at the unit level: expiry (24 hours) and a
// link that does not match its request.
let db: RealmDb;
let dispose: () => Promise<void>;
let ctx: ReturnType<typeof domainContext>;
beforeAll(async () => {
  let name: string;
  ({ db, name, dispose } = await tempRealmDb());
  ctx = domainContext(unitRealm(name), { kind: 'anonymous' });
});
afterAll(async () => dispose());

async function pendingRequest(newEmail: string, ttlMinutes?: number) {
  const { id: userId } = await insertUser(db, ctx.realm, { userName: `u-${newId().slice(0, 8)}`, email: `${newId().slice(0, 8)}@example.test` });
  const requestId = newId();
  const { secret } = await issueSecret(db, { purpose: 'profile-email', userId, email: newEmail, data: { requestId }, ttlMinutes });
  await db.userChangeRequest.create({
    data: { id: requestId, userId, status: 'AwaitingEmailVerification', changes: JSON.stringify({ Email: newEmail }), newEmail },
  });
  return { requestId, secret };
}
const statusOf = async (id: string) => (await db.userChangeRequest.findUniqueOrThrow({ where: { id } })).status;

describe('verifyProfileEmail', () => {
  it('refuses an expired link with Token.Expired; the request keeps waiting', async () => {
    const { requestId, secret } = await pendingRequest('late@example.test', -1);
    expect(await errorCodeOf(verifyProfileEmail(ctx, secret))).toBe('Token.Expired');
    expect(await statusOf(requestId)).toBe('AwaitingEmailVerification');
  });

  it('moves the request to Open once; the link is then used', async () => {
    const { requestId, secret } = await pendingRequest('fresh@example.test');
    expect(await verifyProfileEmail(ctx, secret)).toEqual({ Id: requestId, Status: 'Open' });
    expect(await statusOf(requestId)).toBe('Open');
    expect(await errorCodeOf(verifyProfileEmail(ctx, secret))).toBe('Token.Used');
  });

  it('refuses a link whose request waits for another address', async () => {
    const { requestId, secret } = await pendingRequest('one@example.test');
    await db.userChangeRequest.update({ where: { id: requestId }, data: { newEmail: 'two@example.test' } });
    expect(await errorCodeOf(verifyProfileEmail(ctx, secret))).toBe('Token.Invalid');
    expect(await statusOf(requestId)).toBe('AwaitingEmailVerification');
  });

  it('answers ChangeRequest.NotOpen for a request cancelled meanwhile', async () => {
    const { requestId, secret } = await pendingRequest('gone@example.test');
    await db.userChangeRequest.update({ where: { id: requestId }, data: { status: 'Cancelled' } });
    expect(await errorCodeOf(verifyProfileEmail(ctx, secret))).toBe('ChangeRequest.NotOpen');
  });
});
