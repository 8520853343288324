import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealmDb } from '../../db/types';
import { tempRealmDb } from '../../testing/temp-realm-db';
import { errorCodeOf, unitRealm } from '../../testing/unit-realm';
import { domainContext, type DomainContext } from '../../realm/context';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { invalidateRealmSettingsCache } from '../realm-settings/realm-settings';
import { insertUser } from '../users/insert-user';
import { magicLinkUrl, type MagicLinkData } from './issue-magic-link';
import { magicLinkLogin } from './magic-link-login';

// Magic-link rules the HTTP tests cannot reach in time (a link past its 15 minutes) or stage (a
// stored continuation that is no longer safe). Rate limits are off here.
let db: RealmDb;
let dispose: () => Promise<void>;
let ctx: DomainContext;

async function setMagicLink(on: boolean): Promise<void> {
  const document = JSON.stringify({ SignIn: { MagicLink: on } });
  await db.realmSettings.upsert({ where: { id: 'realm' }, create: { id: 'realm', document }, update: { document } });
  invalidateRealmSettingsCache();
}

beforeAll(async () => {
  process.env.GATEHOUSE_RATE_LIMIT_SCALE = '0';
  let name: string;
  ({ db, name, dispose } = await tempRealmDb());
  ctx = domainContext(unitRealm(name), { kind: 'anonymous' });
  await setMagicLink(true);
});
afterAll(async () => dispose());

let n = 0;
async function user(): Promise<string> {
  return (await insertUser(db, ctx.realm, { userName: `m${++n}`, email: `m${n}@example.test` })).id;
}

function link(userId: string, data: MagicLinkData = { via: 'self' }, ttlMinutes?: number) {
  return issueSecret(db, { purpose: 'magic-link', userId, data, ttlMinutes });
}

describe('magicLinkLogin', () => {
  it('the mailed URL carries the token and the user id on the realm origin', () => {
    const url = new URL(magicLinkUrl(ctx.realm, 'tok', 'u-1'));
    expect(url.pathname).toBe('/api/account/magic-link/login');
    expect(url.hostname).toBe('unit.test');
    expect(Object.fromEntries(url.searchParams)).toEqual({ token: 'tok', user: 'u-1' });
  });

  it('signs in once with amr mail, confirms the address and returns the continuation', async () => {
    const id = await user();
    const { secret } = await link(id, { via: 'self', redirect: '/connect/authorize?x=1' });
    const r = await magicLinkLogin(ctx, secret, id);
    expect(r.outcome).toMatchObject({ kind: 'session', body: { authenticated: true, userId: id } });
    expect(r.continuation).toBe('/connect/authorize?x=1');
    expect((await db.user.findUniqueOrThrow({ where: { id } })).emailConfirmed).toBe(true);
    expect(JSON.parse((await db.session.findFirstOrThrow({ where: { userId: id } })).amr)).toEqual(['mail']);
    expect(await errorCodeOf(magicLinkLogin(ctx, secret, id))).toBe('Token.Used');
  });

  it('an expired link answers Token.Expired', async () => {
    const id = await user();
    const { secret } = await link(id, { via: 'self' }, -1);
    expect(await errorCodeOf(magicLinkLogin(ctx, secret, id))).toBe('Token.Expired');
  });

  it("another user's id answers Token.Invalid and does not burn the link", async () => {
    const id = await user();
    const other = await user();
    const { secret } = await link(id);
    expect(await errorCodeOf(magicLinkLogin(ctx, secret, other))).toBe('Token.Invalid');
    expect(await errorCodeOf(magicLinkLogin(ctx, 'x'.repeat(43), id))).toBe('Token.Invalid');
    expect((await magicLinkLogin(ctx, secret, id)).outcome.kind).toBe('session');
  });

  it('a deactivated or deleted user cannot use a link', async () => {
    const a = await user();
    const la = await link(a);
    await db.user.update({ where: { id: a }, data: { isActive: false } });
    expect(await errorCodeOf(magicLinkLogin(ctx, la.secret, a))).toBe('Token.Invalid');
    const b = await user();
    const lb = await link(b);
    await db.user.update({ where: { id: b }, data: { deletedAt: new Date() } });
    expect(await errorCodeOf(magicLinkLogin(ctx, lb.secret, b))).toBe('Token.Invalid');
  });

  it('self-service links stop when the realm turns magic links off; administrator links do not', async () => {
    const id = await user();
    const self = await link(id, { via: 'self' });
    const admin = await link(id, { via: 'admin' });
    await setMagicLink(false);
    try {
      expect(await errorCodeOf(magicLinkLogin(ctx, self.secret, id))).toBe('SignIn.MethodDisabled');
      expect((await magicLinkLogin(ctx, admin.secret, id)).outcome.kind).toBe('session');
    } finally {
      await setMagicLink(true);
    }
  });

  it('a stored continuation that is not safe is dropped', async () => {
    const id = await user();
    const { secret } = await link(id, { via: 'self', redirect: '//evil.test/x' });
    expect((await magicLinkLogin(ctx, secret, id)).continuation).toBeUndefined();
  });

  it('a user with 2FA gets the second step, with a pending sign-in', async () => {
    const id = await user();
    await db.user.update({ where: { id }, data: { twoFactorEnabled: true } });
    const { secret } = await link(id);
    const r = await magicLinkLogin(ctx, secret, id);
    expect(r.outcome.kind).toBe('second-factor');
    expect(r.outcome.body).toEqual({ requiresTwoFactor: true, mfaMethods: ['totp'] });
  });
});
