import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, eventually, expectProblem, signIn, suite, type CookieJar, type SignedIn } from '../support/harness';
import { mailCount, mailsTo, waitForMail } from '../support/mailbox';
import { makeUser, signedIn, type MadeUser } from '../users/fixtures';
import { expectRateLimited, linkTo, setRateLimits, tokenIn } from '../passwords/links';

// The user's side of profile change requests (spec 3.4, 4.2; CONTRACT.md "Account bodies other
// tools rely on"). The administrator's side is in admin-change-requests.test.ts.
let host: string;
let domain: string;
let admin: SignedIn;

beforeAll(async () => {
  const realm = await createRealm();
  ({ host, domain } = realm);
  admin = await bootstrapAdmin(realm.slug);
  // Many requests from one address: the source ceiling is raised, the per-user one stays.
  await setRateLimits(host, admin.jar, { 'profile-request': { Source: { Points: 1000, DurationSeconds: 60 } } });
});

const submit = (jar: CookieJar | undefined, body: Record<string, unknown>) => api(host, 'PUT', '/api/account/profile/request', { cookie: jar, body });
const mine = (jar: CookieJar) => api(host, 'GET', '/api/account/profile/request', { cookie: jar });
const cancel = (jar: CookieJar) => api(host, 'DELETE', '/api/account/profile/request', { cookie: jar });
const verifyEmail = (token: unknown) => api(host, 'POST', '/api/account/profile/request/verify-email', { body: { Token: token } });

async function person(extra: Record<string, unknown> = { Firstname: 'Ada', Lastname: 'Lovelace' }): Promise<{ user: MadeUser; jar: CookieJar }> {
  const user = await makeUser(host, admin.jar, extra);
  return { user, jar: await signedIn(host, user) };
}

async function emailChange(jar: CookieJar, to: string) {
  const before = await mailCount(to);
  const res = await submit(jar, { Email: to });
  expect(res.status, res.text).toBe(202);
  return { res, mail: await waitForMail(to, { after: before, subject: /new e-mail/i }) };
}

describe('submitting', () => {
  it('needs a session', async () => {
    expectProblem(await submit(undefined, { Firstname: 'X' }), 401);
    expectProblem(await api(host, 'GET', '/api/account/profile/request'), 401);
  });

  it('a name change goes straight to the administrators (200 Open), with only the fields that differ', async () => {
    const { user, jar } = await person();
    const res = await submit(jar, { firstname: 'Ada', lastname: 'King', acronym: 'AK' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ UserId: user.id, Status: 'Open', Changes: { Lastname: 'King', Acronym: 'AK' } });
    expect(res.body.Changes).not.toHaveProperty('Firstname');
    expect(res.body.Id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).not.toHaveProperty('Current');
    // Nothing is written to the profile itself.
    const profile = await api(host, 'GET', '/api/account/me', { cookie: jar });
    expect(profile.body.Lastname).toBe('Lovelace');
    expect(profile.body.Acronym).toBeUndefined();
  });

  it('a clear is asked for with null or "" and shows as ""', async () => {
    const { jar } = await person();
    const res = await submit(jar, { Lastname: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body.Changes).toEqual({ Lastname: '' });
  });

  it('refuses a request that changes nothing with ChangeRequest.Empty', async () => {
    const { user, jar } = await person();
    expectProblem(await submit(jar, {}), 400, 'ChangeRequest.Empty');
    expectProblem(await submit(jar, { Firstname: 'Ada', Lastname: ' Lovelace ', Email: user.email.toUpperCase() }), 400, 'ChangeRequest.Empty');
    expectProblem(await submit(jar, { Acronym: '' }), 400, 'ChangeRequest.Empty');
  });

  it('validates the fields', async () => {
    const { jar } = await person();
    const res = await submit(jar, { Email: 'not-an-address', Acronym: 'x'.repeat(50) });
    expectProblem(res, 400, 'Validation.Failed');
    expect(Object.keys(res.body.errors).sort()).toEqual(['Acronym', 'Email']);
  });

  it('allows one pending request per user (409 ChangeRequest.AlreadyOpen)', async () => {
    const { jar } = await person();
    expect((await submit(jar, { Firstname: 'One' })).status).toBe(200);
    expectProblem(await submit(jar, { Firstname: 'Two' }), 409, 'ChangeRequest.AlreadyOpen');
    expectProblem(await submit(jar, { Email: `two-${Date.now()}@example.test` }), 409, 'ChangeRequest.AlreadyOpen');
  });

  it('of concurrent submissions exactly one wins', async () => {
    const { jar } = await person();
    const answers = await Promise.all(['A', 'B', 'C', 'D'].map((f) => submit(jar, { Firstname: f })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses, answers.map((r) => r.text).join('\n')).toEqual([200, 409, 409, 409]);
    for (const r of answers.filter((a) => a.status === 409)) expectProblem(r, 409, 'ChangeRequest.AlreadyOpen');
  });

  it('answers an address another user has like a free one (anti-enumeration): 202, the outcome by mail', async () => {
    const { user, jar } = await person();
    const other = await makeUser(host, admin.jar);
    const free = await person();
    const freeTo = `free-${free.user.userName}@example.test`;
    const freeAnswer = await emailChange(free.jar, freeTo);

    const before = await mailCount(other.email);
    const res = await submit(jar, { Email: other.email.toUpperCase() });
    expect(res.status, res.text).toBe(202);
    // The same answer shape and state as for a free address.
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(freeAnswer.res.body).sort());
    expect(res.body).toMatchObject({ UserId: user.id, Status: 'AwaitingEmailVerification', Changes: { Email: other.email.toUpperCase() } });
    expect((await mine(jar)).body.Open).toMatchObject({ Id: res.body.Id, Status: 'AwaitingEmailVerification' });
    // The mailbox (the other account's owner) hears that nothing changes, with no link to confirm.
    const note = await waitForMail(other.email, { after: before, subject: /use this address/i });
    expect(note.text).toMatch(/already uses it/i);
    expect(note.links.some((l) => l.includes('/verify-profile-email'))).toBe(false);
    // The person can cancel it like any request, and an administrator's own address is no different.
    expect((await cancel(jar)).status).toBe(200);
    expect((await submit(jar, { Email: admin.email })).status).toBe(202);
    expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).body.Email).toBe(user.email);
  });
});

describe('a new e-mail address', () => {
  it('waits for the link mailed to the NEW address (202 AwaitingEmailVerification), then opens', async () => {
    const { user, jar } = await person();
    const to = `new-${user.userName}@example.test`;
    const oldBefore = await mailCount(user.email);
    const { res, mail } = await emailChange(jar, to);
    expect(res.body).toMatchObject({ Status: 'AwaitingEmailVerification', Changes: { Email: to } });
    const link = linkTo(mail, '/verify-profile-email');
    expect(link.origin).toBe(`http://${domain}:${suite().port}`);
    expect(mail.text).toMatch(/24 hours/);
    expect(await mailCount(user.email)).toBe(oldBefore);

    expect((await mine(jar)).body.Open).toMatchObject({ Id: res.body.Id, Status: 'AwaitingEmailVerification' });
    const verified = await verifyEmail(link.searchParams.get('token'));
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual({ Id: res.body.Id, Status: 'Open' });
    expect((await mine(jar)).body.Open).toMatchObject({ Id: res.body.Id, Status: 'Open' });
    expectProblem(await verifyEmail(link.searchParams.get('token')), 400, 'Token.Used');
    // The address is not the user's until an administrator approves.
    expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).body.Email).toBe(user.email);
  });

  it('refuses unknown tokens and a malformed body', async () => {
    expectProblem(await verifyEmail('A'.repeat(43)), 400, 'Token.Invalid');
    expectProblem(await verifyEmail(''), 400, 'Validation.Failed');
  });

  it('a cancelled request’s link stops working', async () => {
    const { user, jar } = await person();
    const { mail } = await emailChange(jar, `cancel-${user.userName}@example.test`);
    expect((await cancel(jar)).body.Status).toBe('Cancelled');
    expectProblem(await verifyEmail(tokenIn(mail, '/verify-profile-email')), 400, 'Token.Used');
  });
});

describe('reading and cancelling', () => {
  it('GET shows the pending request and the last decided one; DELETE cancels', async () => {
    const { user, jar } = await person();
    expect((await mine(jar)).body).toEqual({});

    const first = await submit(jar, { Firstname: 'Augusta' });
    const rejected = await api(host, 'POST', `/api/admin/change-requests/${first.body.Id}/reject`, {
      cookie: admin.jar,
      body: { Reason: 'Use your legal name.' },
    });
    expect(rejected.status, rejected.text).toBe(200);
    const second = await submit(jar, { Acronym: 'AL' });
    const view = (await mine(jar)).body;
    expect(view.Open).toMatchObject({ Id: second.body.Id, Status: 'Open', Changes: { Acronym: 'AL' } });
    expect(view.LastDecided).toMatchObject({ Id: first.body.Id, Status: 'Rejected', Reason: 'Use your legal name.' });
    expect(typeof view.LastDecided.DecidedAt).toBe('string');

    const cancelled = await cancel(jar);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ Id: second.body.Id, UserId: user.id, Status: 'Cancelled' });
    const after = (await mine(jar)).body;
    expect(after.Open).toBeUndefined();
    expect(after.LastDecided.Id).toBe(first.body.Id);
    expectProblem(await cancel(jar), 404, 'ChangeRequest.NotFound');
    // Cancelled is terminal: an administrator cannot decide it any more.
    expectProblem(await api(host, 'POST', `/api/admin/change-requests/${second.body.Id}/approve`, { cookie: admin.jar }), 409, 'ChangeRequest.NotOpen');
    // And a new request may be made.
    expect((await submit(jar, { Acronym: 'AL' })).status).toBe(200);
  });
});

describe('rate limit', () => {
  it('limits requests per user (target: 5 per window)', async () => {
    const { jar } = await person();
    for (let i = 0; i < 5; i++) expectProblem(await submit(jar, {}), 400, 'ChangeRequest.Empty');
    expectRateLimited(await submit(jar, { Firstname: 'Late' }), 'profile-request', 'target');
  });
});

describe('security log', () => {
  it('records requests, verifications and cancellations, never the token', async () => {
    const { user, jar } = await person();
    const { mail } = await emailChange(jar, `log-${user.userName}@example.test`);
    const token = tokenIn(mail, '/verify-profile-email');
    await verifyEmail(token);
    await cancel(jar);
    const log = await eventually(async () => {
      const r = await api(host, 'GET', '/api/admin/auth-log?limit=1000', { cookie: admin.jar });
      const types = r.body.filter((e: { UserId?: string }) => e.UserId === user.id).map((e: { EventType: string }) => e.EventType);
      expect(types).toEqual(expect.arrayContaining(['user.change-requested', 'user.change-email-verified', 'user.change-cancelled']));
      return r;
    });
    expect(log.text).not.toContain(token);
    expect(await mailsTo(`log-${user.userName}@example.test`)).toHaveLength(1);
  });
});

describe('after approval', () => {
  it('the user signs in with the new address, which is confirmed', async () => {
    const { user, jar } = await person();
    const to = `approved-${user.userName}@example.test`;
    const { res, mail } = await emailChange(jar, to);
    await verifyEmail(tokenIn(mail, '/verify-profile-email'));
    const approved = await api(host, 'POST', `/api/admin/change-requests/${res.body.Id}/approve`, { cookie: admin.jar });
    expect(approved.status, approved.text).toBe(200);
    const profile = (await api(host, 'GET', '/api/account/me', { cookie: jar })).body;
    expect(profile).toMatchObject({ Email: to, EmailConfirmed: true });
    expect((await signIn(host, to, user.password)).res.status).toBe(200);
    expect((await signIn(host, user.email, user.password)).res.status).toBe(401);
    expect((await mine(jar)).body.LastDecided).toMatchObject({ Id: res.body.Id, Status: 'Approved' });
  });
});
