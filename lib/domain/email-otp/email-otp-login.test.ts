import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealmDb } from '../../db/types';
import { tempRealmDb } from '../../testing/temp-realm-db';
import { errorCodeOf, unitRealm } from '../../testing/unit-realm';
import { domainContext, type DomainContext } from '../../realm/context';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { invalidateRealmSettingsCache } from '../realm-settings/realm-settings';
import { insertUser } from '../users/insert-user';
import { emailOtpLogin, emailOtpSecondFactor } from './email-otp-login';
import { requestEmailOtp } from './request-email-otp';

// E-mail code rules the HTTP tests cannot reach in time (a code past its 10 minutes) or cannot see
// (the rows behind the uniform answer). Rate limits are off here (GATEHOUSE_RATE_LIMIT_SCALE=0).
let db: RealmDb;
let dispose: () => Promise<void>;
let ctx: DomainContext;

beforeAll(async () => {
  process.env.GATEHOUSE_RATE_LIMIT_SCALE = '0';
  let name: string;
  ({ db, name, dispose } = await tempRealmDb());
  ctx = domainContext(unitRealm(name), { kind: 'anonymous' });
});
afterAll(async () => dispose());

async function expireCodes(mailbox: string): Promise<void> {
  await db.oneTimeSecret.updateMany({ where: { purpose: 'email-otp', email: mailbox }, data: { expiresAt: new Date(Date.now() - 1000) } });
}

describe('first factor', () => {
  it('stores a code row for a known and for an unknown address alike (the same database work)', async () => {
    const { id } = await insertUser(db, ctx.realm, { userName: 'known', email: 'Known@Example.test' });
    await requestEmailOtp(ctx, 'KNOWN@example.test');
    await requestEmailOtp(ctx, 'nobody@example.test');
    const known = await db.oneTimeSecret.findMany({ where: { purpose: 'email-otp', email: 'known@example.test' } });
    const unknown = await db.oneTimeSecret.findMany({ where: { purpose: 'email-otp', email: 'nobody@example.test' } });
    expect(known).toHaveLength(1);
    expect(unknown).toHaveLength(1);
    expect(known[0].userId).toBeNull();
    expect(JSON.parse(known[0].data!)).toEqual({ userId: id });
    expect(JSON.parse(unknown[0].data!)).toEqual({ userId: null });
    // A second request revokes the first code.
    await requestEmailOtp(ctx, 'known@example.test');
    expect(await db.oneTimeSecret.count({ where: { purpose: 'email-otp', email: 'known@example.test', usedAt: null } })).toBe(1);
  });

  it('an expired code answers Code.Expired, for a known and an unknown address alike', async () => {
    await insertUser(db, ctx.realm, { userName: 'late', email: 'late@example.test' });
    await requestEmailOtp(ctx, 'late@example.test');
    await requestEmailOtp(ctx, 'ghost@example.test');
    await expireCodes('late@example.test');
    await expireCodes('ghost@example.test');
    expect(await errorCodeOf(emailOtpLogin(ctx, 'late@example.test', '123456'))).toBe('Code.Expired');
    expect(await errorCodeOf(emailOtpLogin(ctx, 'ghost@example.test', '123456'))).toBe('Code.Expired');
  });

  it('five wrong codes exhaust the code, for a known and an unknown address alike', async () => {
    await insertUser(db, ctx.realm, { userName: 'guess', email: 'guess@example.test' });
    for (const mailbox of ['guess@example.test', 'phantom@example.test']) {
      await requestEmailOtp(ctx, mailbox);
      const answers: string[] = [];
      for (let i = 0; i < 6; i++) answers.push(await errorCodeOf(emailOtpLogin(ctx, mailbox, 'abcdef')));
      expect(answers).toEqual(['Code.Invalid', 'Code.Invalid', 'Code.Invalid', 'Code.Invalid', 'Code.TooManyAttempts', 'Code.TooManyAttempts']);
    }
  });

  it('a right code signs in once, confirms the address, and never works for a deactivated user', async () => {
    const { id } = await insertUser(db, ctx.realm, { userName: 'right', email: 'right@example.test' });
    const { secret } = await issueSecret(db, { purpose: 'email-otp', email: 'right@example.test', data: { userId: id } });
    const outcome = await emailOtpLogin(ctx, 'Right@Example.test', secret);
    expect(outcome).toMatchObject({ kind: 'session', body: { authenticated: true, userId: id, userName: 'right' } });
    expect((await db.user.findUniqueOrThrow({ where: { id } })).emailConfirmed).toBe(true);
    expect(await errorCodeOf(emailOtpLogin(ctx, 'right@example.test', secret))).toBe('Code.Invalid');
    const again = await issueSecret(db, { purpose: 'email-otp', email: 'right@example.test', data: { userId: id } });
    await db.user.update({ where: { id }, data: { isActive: false } });
    expect(await errorCodeOf(emailOtpLogin(ctx, 'right@example.test', again.secret))).toBe('Code.Invalid');
  });

  it('a second-step code (bound to a user, not a mailbox) is no first factor', async () => {
    const { id } = await insertUser(db, ctx.realm, { userName: 'second', email: 'second@example.test' });
    const { secret } = await issueSecret(db, { purpose: 'email-otp', userId: id, data: { pendingId: 'p' } });
    expect(await errorCodeOf(emailOtpLogin(ctx, 'second@example.test', secret))).toBe('Code.Invalid');
  });

  it('answers SignIn.MethodDisabled when the realm turned e-mail codes off', async () => {
    await db.realmSettings.create({ data: { id: 'realm', document: JSON.stringify({ SignIn: { EmailOtp: false } }) } });
    invalidateRealmSettingsCache();
    try {
      expect(await errorCodeOf(requestEmailOtp(ctx, 'x@example.test'))).toBe('SignIn.MethodDisabled');
      expect(await errorCodeOf(emailOtpLogin(ctx, 'x@example.test', '123456'))).toBe('SignIn.MethodDisabled');
    } finally {
      await db.realmSettings.delete({ where: { id: 'realm' } });
      invalidateRealmSettingsCache();
    }
  });
});

describe('second step', () => {
  async function pendingFor(userId: string, amr: string[] = ['pwd'], ttlMinutes?: number) {
    return issueSecret(db, { purpose: 'mfa-pending', userId, data: { amr }, ttlMinutes });
  }

  it('finishes the pending sign-in it was sent for, and no other', async () => {
    const { id } = await insertUser(db, ctx.realm, { userName: 'two', email: 'two@example.test' });
    await db.user.update({ where: { id }, data: { twoFactorEnabled: true } });
    const a = await pendingFor(id);
    const b = await pendingFor(id);
    const { secret } = await issueSecret(db, { purpose: 'email-otp', userId: id, data: { pendingId: a.id } });
    expect(await errorCodeOf(emailOtpSecondFactor(ctx, b.secret, secret))).toBe('Code.Invalid');
    const again = await issueSecret(db, { purpose: 'email-otp', userId: id, data: { pendingId: a.id } });
    const outcome = await emailOtpSecondFactor(ctx, a.secret, again.secret);
    expect(outcome.body).toEqual({ authenticated: true, userId: id, userName: 'two' });
    const session = await db.session.findFirstOrThrow({ where: { userId: id } });
    expect(JSON.parse(session.amr)).toEqual(['pwd', 'otp']);
  });

  it('an expired code answers Code.Expired; an expired pending sign-in SignIn.NoPendingSignIn', async () => {
    const { id } = await insertUser(db, ctx.realm, { userName: 'slow', email: 'slow@example.test' });
    await db.user.update({ where: { id }, data: { twoFactorEnabled: true } });
    const p = await pendingFor(id);
    const { secret } = await issueSecret(db, { purpose: 'email-otp', userId: id, data: { pendingId: p.id }, ttlMinutes: -1 });
    expect(await errorCodeOf(emailOtpSecondFactor(ctx, p.secret, secret))).toBe('Code.Expired');
    const gone = await pendingFor(id, ['pwd'], -1);
    expect(await errorCodeOf(emailOtpSecondFactor(ctx, gone.secret, '123456'))).toBe('SignIn.NoPendingSignIn');
  });

  it('is not offered after a mailed first factor, nor without 2FA', async () => {
    const { id } = await insertUser(db, ctx.realm, { userName: 'mailed', email: 'mailed@example.test' });
    const p = await pendingFor(id, ['otp']);
    expect(await errorCodeOf(emailOtpSecondFactor(ctx, p.secret, '123456'))).toBe('SignIn.MethodDisabled');
    await db.user.update({ where: { id }, data: { twoFactorEnabled: true } });
    expect(await errorCodeOf(emailOtpSecondFactor(ctx, p.secret, '123456'))).toBe('SignIn.MethodDisabled');
    const q = await pendingFor(id, ['mail']);
    expect(await errorCodeOf(emailOtpSecondFactor(ctx, q.secret, '123456'))).toBe('SignIn.MethodDisabled');
  });
});

describe('JitOnOtp self-registration', () => {
  async function withSettings(document: unknown, body: () => Promise<void>): Promise<void> {
    await db.realmSettings.upsert({
      where: { id: 'realm' },
      create: { id: 'realm', document: JSON.stringify(document) },
      update: { document: JSON.stringify(document) },
    });
    invalidateRealmSettingsCache();
    try {
      await body();
    } finally {
      await db.realmSettings.delete({ where: { id: 'realm' } });
      invalidateRealmSettingsCache();
    }
  }
  const jit = (RequireInviteCode = false) => ({ SelfRegistration: { Posture: 'JitOnOtp', RequireInviteCode } });
  const codeRow = (mailbox: string) =>
    db.oneTimeSecret.findFirstOrThrow({ where: { purpose: 'email-otp', email: mailbox, usedAt: null }, orderBy: { createdAt: 'desc' } });

  it('marks the code of an unknown address as a registration only with the JitOnOtp posture, and never for an address a deactivated user holds', async () => {
    await requestEmailOtp(ctx, 'off-posture@example.test');
    expect(JSON.parse((await codeRow('off-posture@example.test')).data!)).toEqual({ userId: null });
    await withSettings({ SelfRegistration: { Posture: 'ExplicitEndpoint' } }, async () => {
      await requestEmailOtp(ctx, 'explicit@example.test');
      expect(JSON.parse((await codeRow('explicit@example.test')).data!)).toEqual({ userId: null });
    });
    await insertUser(db, ctx.realm, { userName: 'asleep', email: 'asleep@example.test', isActive: false });
    await withSettings(jit(), async () => {
      await requestEmailOtp(ctx, 'New.Person@example.test');
      expect(JSON.parse((await codeRow('new.person@example.test')).data!)).toEqual({ userId: null, jit: true });
      await requestEmailOtp(ctx, 'asleep@example.test');
      expect(JSON.parse((await codeRow('asleep@example.test')).data!)).toEqual({ userId: null });
    });
  });

  it('a JIT code creates the account (address confirmed, user name = the address) and signs in; without the posture it is just a wrong code', async () => {
    const { secret } = await issueSecret(db, { purpose: 'email-otp', email: 'fresh@example.test', data: { userId: null, jit: true } });
    expect(await errorCodeOf(emailOtpLogin(ctx, 'fresh@example.test', secret))).toBe('Code.Invalid');
    expect(await db.user.count({ where: { emailNormalized: 'fresh@example.test' } })).toBe(0);
    await withSettings(jit(), async () => {
      const again = await issueSecret(db, { purpose: 'email-otp', email: 'fresh@example.test', data: { userId: null, jit: true } });
      const outcome = await emailOtpLogin(ctx, 'Fresh@example.test', again.secret);
      const user = await db.user.findFirstOrThrow({ where: { emailNormalized: 'fresh@example.test' } });
      expect(user).toMatchObject({
        userName: 'Fresh@example.test',
        userNameNormalized: 'fresh@example.test',
        email: 'Fresh@example.test',
        emailConfirmed: true,
        passwordHash: null,
        isActive: true,
      });
      expect(outcome).toMatchObject({ kind: 'session', body: { authenticated: true, userId: user.id } });
      // A wrong JIT code creates nothing.
      await issueSecret(db, { purpose: 'email-otp', email: 'wrong@example.test', data: { userId: null, jit: true } });
      expect(await errorCodeOf(emailOtpLogin(ctx, 'wrong@example.test', 'abcdef'))).toBe('Code.Invalid');
      expect(await db.user.count({ where: { emailNormalized: 'wrong@example.test' } })).toBe(0);
    });
  });

  it('with RequireInviteCode: refused without a valid invite code (the code stays usable); a valid one is consumed with the account', async () => {
    const { generateInviteCode, canonicalInviteCode, inviteCodeHash } = await import('../invite-codes/code');
    const { BUILT_IN_IDS } = await import('../built-in-ids');
    const plain = generateInviteCode();
    const invite = await db.inviteCode.create({
      data: { id: 'invite-jit', appId: BUILT_IN_IDS.mainApp, codeHash: inviteCodeHash(canonicalInviteCode(plain)!) },
    });
    await withSettings(jit(true), async () => {
      const { secret } = await issueSecret(db, { purpose: 'email-otp', email: 'invited@example.test', data: { userId: null, jit: true } });
      const appId = BUILT_IN_IDS.mainApp;
      expect(await errorCodeOf(emailOtpLogin(ctx, 'invited@example.test', secret, { appId }))).toBe('Registration.InviteCodeRequired');
      expect(await errorCodeOf(emailOtpLogin(ctx, 'invited@example.test', secret, { appId, inviteCode: 'NOT-A-CODE' }))).toBe('Registration.InviteCodeInvalid');
      expect(await errorCodeOf(emailOtpLogin(ctx, 'invited@example.test', secret, { appId: 'another-app', inviteCode: plain }))).toBe(
        'Registration.InviteCodeInvalid',
      );
      expect(await db.user.count({ where: { emailNormalized: 'invited@example.test' } })).toBe(0);
      const outcome = await emailOtpLogin(ctx, 'invited@example.test', secret, { appId, inviteCode: plain.toLowerCase() });
      const user = await db.user.findFirstOrThrow({ where: { emailNormalized: 'invited@example.test' } });
      expect(outcome).toMatchObject({ kind: 'session', body: { userId: user.id } });
      expect(await db.inviteCode.findUniqueOrThrow({ where: { id: invite.id } })).toMatchObject({ usedByUserId: user.id });
      expect(await errorCodeOf(emailOtpLogin(ctx, 'invited@example.test', secret, { appId, inviteCode: plain }))).toBe('Code.Invalid');
    });
  });
});
