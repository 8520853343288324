import { randomBytes } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealmDb } from '../../db/types';
import type { RealmRecord } from '../../realm/realm-record';
import { tempRealmDb } from '../../testing/temp-realm-db';
import { errorCodeOf, unitRealm } from '../../testing/unit-realm';
import type { PendingSignIn } from '../auth/sign-in';
import { domainContext, type DomainContext } from '../../realm/context';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { insertUser } from '../users/insert-user';
import { disableTwoFactor } from './disable-two-factor';
import { enableTwoFactor } from './enable-two-factor';
import { setupAuthenticator } from './setup-authenticator';
import { totpLogin } from './totp-login';

// The TOTP rules HTTP tests cannot reach in time or cannot stage: an expired pending sign-in, the
// pending sign-in's attempt limit, replay of an older code, and the enrol/disable state machine.
// Rate limits are off here (GATEHOUSE_RATE_LIMIT_SCALE=0); the HTTP tests cover them.
let db: RealmDb;
let dispose: () => Promise<void>;
let realm: RealmRecord;
const anonymous = (): DomainContext => domainContext(realm, { kind: 'anonymous' });
const as = (userId: string, userName = 'u'): DomainContext => domainContext(realm, { kind: 'user', userId, userName, sessionId: null });
const epoch = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  process.env.GATEHOUSE_RATE_LIMIT_SCALE = '0';
  process.env.GATEHOUSE_SECRET_KEY = randomBytes(32).toString('base64');
  let name: string;
  ({ db, name, dispose } = await tempRealmDb());
  realm = unitRealm(name);
});
afterAll(async () => dispose());

let n = 0;
async function userWithTotp(): Promise<{ id: string; key: string }> {
  const { id } = await insertUser(db, realm, { userName: `u${++n}`, email: `u${n}@example.test` });
  const { SharedKey } = await setupAuthenticator(as(id), undefined);
  // A code of the previous step, so the tests below can use the current one.
  expect(await enableTwoFactor(as(id), await generate({ secret: SharedKey, epoch: epoch() - 30 }), undefined)).toEqual({ kind: 'enabled' });
  return { id, key: SharedKey };
}

async function pending(userId: string, data: PendingSignIn = { amr: ['pwd'] }, ttlMinutes?: number): Promise<string> {
  return (await issueSecret(db, { purpose: 'mfa-pending', userId, data, ttlMinutes })).secret;
}

describe('enrolment', () => {
  it('stores the key sealed, replaces an unconfirmed key, and refuses a second setup once on', async () => {
    const { id } = await insertUser(db, realm, { userName: 'enrol', email: 'enrol@example.test', emailConfirmed: true });
    const first = await setupAuthenticator(as(id), undefined);
    const row = await db.totpAuthenticator.findUniqueOrThrow({ where: { userId: id } });
    expect(row.secretEncrypted).not.toContain(first.SharedKey);
    expect(row.confirmedAt).toBeNull();
    expect(first.AuthenticatorUri).toBe(`otpauth://totp/Unit%20Realm:enrol?secret=${first.SharedKey}&issuer=Unit%20Realm`);
    const second = await setupAuthenticator(as(id), undefined);
    expect(second.SharedKey).not.toBe(first.SharedKey);
    // The replaced key's codes no longer work.
    expect(await errorCodeOf(enableTwoFactor(as(id), await generate({ secret: first.SharedKey }), undefined))).toBe('Mfa.InvalidCode');
    await db.user.update({ where: { id }, data: { secureSetupDueAt: new Date(Date.now() + 1000) } });
    expect(await enableTwoFactor(as(id), await generate({ secret: second.SharedKey }), undefined)).toEqual({ kind: 'enabled' });
    const user = await db.user.findUniqueOrThrow({ where: { id } });
    expect(user.twoFactorEnabled).toBe(true);
    expect(user.secureSetupDueAt).toBeNull();
    expect(await errorCodeOf(setupAuthenticator(as(id), undefined))).toBe('Mfa.AlreadyEnabled');
    expect(await errorCodeOf(enableTwoFactor(as(id), '123456', undefined))).toBe('Mfa.AlreadyEnabled');
  });

  it('verify before setup answers Mfa.SetupNotStarted', async () => {
    const { id } = await insertUser(db, realm, { userName: 'nosetup', email: 'nosetup@example.test' });
    expect(await errorCodeOf(enableTwoFactor(as(id), '123456', undefined))).toBe('Mfa.SetupNotStarted');
  });

  it('without a session, only a setup-only pending sign-in may enrol, and verify then signs in', async () => {
    const { id } = await insertUser(db, realm, { userName: 'blocked', email: 'blocked@example.test' });
    expect(await errorCodeOf(setupAuthenticator(anonymous(), undefined))).toBe('Auth.Unauthenticated');
    expect(await errorCodeOf(setupAuthenticator(anonymous(), await pending(id)))).toBe('Auth.Unauthenticated');
    const token = await pending(id, { amr: ['pwd'], setupOnly: true }, 15);
    const { SharedKey } = await setupAuthenticator(anonymous(), token);
    const r = await enableTwoFactor(anonymous(), await generate({ secret: SharedKey }), token);
    expect(r.kind).toBe('signed-in');
    if (r.kind !== 'signed-in') return;
    expect(r.outcome.body).toEqual({ authenticated: true, userId: id, userName: 'blocked' });
    const session = await db.session.findFirstOrThrow({ where: { userId: id } });
    expect(JSON.parse(session.amr)).toEqual(['pwd', 'otp']);
    // The pending sign-in is consumed.
    expect(await errorCodeOf(setupAuthenticator(anonymous(), token))).toBe('SignIn.NoPendingSignIn');
  });
});

describe('totpLogin', () => {
  it('an expired, unknown or missing pending sign-in answers SignIn.NoPendingSignIn', async () => {
    const { id, key } = await userWithTotp();
    const code = await generate({ secret: key });
    expect(await errorCodeOf(totpLogin(anonymous(), await pending(id, { amr: ['pwd'] }, -1), code))).toBe('SignIn.NoPendingSignIn');
    expect(await errorCodeOf(totpLogin(anonymous(), 'x'.repeat(43), code))).toBe('SignIn.NoPendingSignIn');
    expect(await errorCodeOf(totpLogin(anonymous(), undefined, code))).toBe('SignIn.NoPendingSignIn');
  });

  it('a setup-only pending sign-in cannot be finished with a code', async () => {
    const { id, key } = await userWithTotp();
    expect(await errorCodeOf(totpLogin(anonymous(), await pending(id, { amr: ['pwd'], setupOnly: true }), await generate({ secret: key })))).toBe(
      'SignIn.SetupOnly',
    );
  });

  it('signs in with amr pwd+otp and consumes the pending sign-in', async () => {
    const { id, key } = await userWithTotp();
    const token = await pending(id);
    const outcome = await totpLogin(anonymous(), token, await generate({ secret: key }));
    expect(outcome.kind).toBe('session');
    expect(outcome.sessionToken.length).toBeGreaterThan(40);
    const session = await db.session.findFirstOrThrow({ where: { userId: id } });
    expect(JSON.parse(session.amr)).toEqual(['pwd', 'otp']);
    expect(await errorCodeOf(totpLogin(anonymous(), token, await generate({ secret: key, epoch: epoch() + 30 })))).toBe('SignIn.NoPendingSignIn');
  });

  it('refuses the same code twice, and an older code after a newer one (Mfa.CodeReplayed)', async () => {
    const { id, key } = await userWithTotp();
    const now = await generate({ secret: key });
    await totpLogin(anonymous(), await pending(id), now);
    expect(await errorCodeOf(totpLogin(anonymous(), await pending(id), now))).toBe('Mfa.CodeReplayed');
    const { id: id2, key: key2 } = await userWithTotp();
    await totpLogin(anonymous(), await pending(id2), await generate({ secret: key2, epoch: epoch() + 30 }));
    expect(await errorCodeOf(totpLogin(anonymous(), await pending(id2), await generate({ secret: key2 })))).toBe('Mfa.CodeReplayed');
  });

  it('five wrong codes end the pending sign-in', async () => {
    const { id, key } = await userWithTotp();
    const token = await pending(id);
    const right = await generate({ secret: key });
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) expect(await errorCodeOf(totpLogin(anonymous(), token, wrong))).toBe('Mfa.InvalidCode');
    expect(await errorCodeOf(totpLogin(anonymous(), token, right))).toBe('SignIn.NoPendingSignIn');
  });

  it('a deactivated user cannot finish a pending sign-in', async () => {
    const { id, key } = await userWithTotp();
    const token = await pending(id);
    await db.user.update({ where: { id }, data: { isActive: false } });
    expect(await errorCodeOf(totpLogin(anonymous(), token, await generate({ secret: key })))).toBe('SignIn.NoPendingSignIn');
  });
});

describe('disableTwoFactor', () => {
  it('needs a current code, refuses a replayed one, and turns 2FA off', async () => {
    const { id, key } = await userWithTotp();
    expect(await errorCodeOf(disableTwoFactor(as(id), '000000'))).toMatch(/^Mfa\.(InvalidCode|CodeReplayed)$/);
    const code = await generate({ secret: key });
    await totpLogin(anonymous(), await pending(id), code);
    expect(await errorCodeOf(disableTwoFactor(as(id), code))).toBe('Mfa.CodeReplayed');
    await disableTwoFactor(as(id), await generate({ secret: key, epoch: epoch() + 30 }));
    const user = await db.user.findUniqueOrThrow({ where: { id }, include: { totp: true } });
    expect(user.twoFactorEnabled).toBe(false);
    expect(user.totp).toBeNull();
    expect(await errorCodeOf(disableTwoFactor(as(id), code))).toBe('Mfa.NotEnabled');
  });

  it('is refused while the user must use 2FA', async () => {
    const { id, key } = await userWithTotp();
    await db.user.update({ where: { id }, data: { twoFactorPolicy: 'Required' } });
    expect(await errorCodeOf(disableTwoFactor(as(id), await generate({ secret: key })))).toBe('Mfa.Required');
    expect((await db.user.findUniqueOrThrow({ where: { id } })).twoFactorEnabled).toBe(true);
  });
});
