import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, eventually, expectProblem, suite, type SignedIn } from '../support/harness';
import { mailCount, waitForMail } from '../support/mailbox';
import { makeUser, signedIn, type MadeUser } from '../users/fixtures';
import { expectRateLimited, linkTo, tokenIn } from '../passwords/links';

// Confirming one's own address (spec 4.1 email/send-verification and email/verify; CONTRACT.md
// "Account bodies other tools rely on"): the token binds the user and the address it was sent to.
let host: string;
let domain: string;
let admin: SignedIn;

beforeAll(async () => {
  const realm = await createRealm();
  ({ host, domain } = realm);
  admin = await bootstrapAdmin(realm.slug);
});

const send = (cookie?: SignedIn['jar']) => api(host, 'POST', '/api/account/email/send-verification', { cookie });
const verify = (token: unknown) => api(host, 'POST', '/api/account/email/verify', { body: { Token: token } });
const me = async (cookie: SignedIn['jar']) => (await api(host, 'GET', '/api/account/me', { cookie })).body;

async function verificationMail(user: MadeUser, jar: SignedIn['jar']) {
  const before = await mailCount(user.email);
  const res = await send(jar);
  expect(res.status, res.text).toBe(200);
  return waitForMail(user.email, { after: before, subject: /confirm/i });
}

describe('send-verification', () => {
  it('needs a session', async () => {
    expectProblem(await send(), 401);
  });

  it("mails a link to the user's address on the realm origin, with its lifetime", async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const mail = await verificationMail(user, jar);
    const link = linkTo(mail, '/verify-email');
    expect(link.origin).toBe(`http://${domain}:${suite().port}`);
    expect(mail.to).toEqual([user.email]);
    expect(mail.text).toMatch(/24 hours/);
  });

  it('answers 409 Email.AlreadyConfirmed for a confirmed address', async () => {
    const user = await makeUser(host, admin.jar, { EmailConfirmed: true });
    const jar = await signedIn(host, user);
    const before = await mailCount(user.email);
    expectProblem(await send(jar), 409, 'Email.AlreadyConfirmed');
    expect(await mailCount(user.email)).toBe(before);
  });
});

describe('verify', () => {
  it('confirms the address once; a newer link replaces the earlier one', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    expect((await me(jar)).EmailConfirmed).toBe(false);
    const first = tokenIn(await verificationMail(user, jar), '/verify-email');
    const second = tokenIn(await verificationMail(user, jar), '/verify-email');
    expectProblem(await verify(first), 400, 'Token.Used');

    const res = await verify(second);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ EmailConfirmed: true });
    expect((await me(jar)).EmailConfirmed).toBe(true);
    expectProblem(await verify(second), 400, 'Token.Used');
    expectProblem(await send(jar), 409, 'Email.AlreadyConfirmed');
  });

  it('works without a session (the token is the proof)', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const token = tokenIn(await verificationMail(user, jar), '/verify-email');
    expect((await api(host, 'POST', '/api/account/email/verify', { body: { token } })).status).toBe(200);
  });

  it('refuses the link once the address has changed since it was sent', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const token = tokenIn(await verificationMail(user, jar), '/verify-email');
    const moved = await api(host, 'PUT', `/api/user/${user.id}`, { cookie: admin.jar, body: { Email: `moved-${user.email}` } });
    expect(moved.status, moved.text).toBe(200);
    const res = await verify(token);
    expectProblem(res, 400, 'Token.Invalid');
    expect(res.body.detail).toMatch(/changed/);
    expect((await me(jar)).EmailConfirmed).toBe(false);
  });

  it('refuses unknown tokens and a malformed body', async () => {
    expectProblem(await verify('A'.repeat(43)), 400, 'Token.Invalid');
    expectProblem(await verify(''), 400, 'Validation.Failed');
    expectProblem(await api(host, 'POST', '/api/account/email/verify', { body: {} }), 400, 'Validation.Failed');
  });

  it('records sends and confirmations in the security log, never the token', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const token = tokenIn(await verificationMail(user, jar), '/verify-email');
    await verify(token);
    const log = await eventually(async () => {
      const r = await api(host, 'GET', '/api/admin/auth-log?limit=1000', { cookie: admin.jar });
      const mine = r.body.filter((e: { UserId?: string }) => e.UserId === user.id).map((e: { EventType: string }) => e.EventType);
      expect(mine).toContain('user.email-verified');
      expect(mine).toContain('user.email-verification-sent');
      return r;
    });
    expect(log.text).not.toContain(token);
  });
});

describe('rate limits', () => {
  it('limits sends per mailbox (target: 3 per window) and per source (10 per window)', async () => {
    const realm = await createRealm();
    const realmAdmin = await bootstrapAdmin(realm.slug);
    const a = await makeUser(realm.host, realmAdmin.jar);
    const jarA = await signedIn(realm.host, a);
    const sendIn = (jar: SignedIn['jar']) => api(realm.host, 'POST', '/api/account/email/send-verification', { cookie: jar });
    for (let i = 0; i < 3; i++) expect((await sendIn(jarA)).status).toBe(200);
    expectRateLimited(await sendIn(jarA), 'email-verification', 'target');

    // Four from this address so far; other mailboxes get six more, then the source limit holds.
    for (let i = 0; i < 3; i++) {
      const u = await makeUser(realm.host, realmAdmin.jar);
      const jar = await signedIn(realm.host, u);
      expect((await sendIn(jar)).status).toBe(200);
      expect((await sendIn(jar)).status).toBe(200);
    }
    const last = await makeUser(realm.host, realmAdmin.jar);
    expectRateLimited(await sendIn(await signedIn(realm.host, last)), 'email-verification', 'source');
  });
});
