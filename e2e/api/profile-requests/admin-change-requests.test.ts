import { beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, expectProblem, realmWithAdmin, type CookieJar, type SignedIn } from '../support/harness';
import { mailCount, waitForMail } from '../support/mailbox';
import { grant, makeUser, signedIn, type MadeUser } from '../users/fixtures';
import { setRateLimits, tokenIn } from '../passwords/links';

// Administrators decide profile change requests (spec 3.4, 4.7 "User administration": user:write).
let host: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
  // Many requests from one address: the source ceiling is raised, the per-user one stays.
  await setRateLimits(host, admin.jar, { 'profile-request': { Source: { Points: 1000, DurationSeconds: 60 } } });
});

const list = (jar: CookieJar, query = '') => api(host, 'GET', `/api/admin/change-requests${query}`, { cookie: jar });
const approve = (jar: CookieJar, id: string) => api(host, 'POST', `/api/admin/change-requests/${id}/approve`, { cookie: jar });
const reject = (jar: CookieJar, id: string, body: Record<string, unknown> = {}) =>
  api(host, 'POST', `/api/admin/change-requests/${id}/reject`, { cookie: jar, body });
const submit = (jar: CookieJar, body: Record<string, unknown>) => api(host, 'PUT', '/api/account/profile/request', { cookie: jar, body });

async function requester(body: Record<string, unknown>): Promise<{ user: MadeUser; jar: CookieJar; id: string }> {
  const user = await makeUser(host, admin.jar, { Firstname: 'Grace', Lastname: 'Hopper', Acronym: 'GH' });
  const jar = await signedIn(host, user);
  const res = await submit(jar, body);
  expect(res.status, res.text).toBe(200);
  return { user, jar, id: res.body.Id };
}

/** An e-mail change, verified through the link mailed to the new address. */
async function verifiedEmailChange(to: string): Promise<{ user: MadeUser; jar: CookieJar; id: string }> {
  const user = await makeUser(host, admin.jar);
  const jar = await signedIn(host, user);
  const before = await mailCount(to);
  const res = await submit(jar, { Email: to, Firstname: 'Renamed' });
  expect(res.status, res.text).toBe(202);
  const mail = await waitForMail(to, { after: before, subject: /new e-mail/i });
  const verified = await api(host, 'POST', '/api/account/profile/request/verify-email', { body: { Token: tokenIn(mail, '/verify-profile-email') } });
  expect(verified.status, verified.text).toBe(200);
  return { user, jar, id: res.body.Id };
}

describe('listing', () => {
  it('shows open requests by default, each with the current values beside the requested ones', async () => {
    const { user, id } = await requester({ Lastname: 'Murray', Acronym: '' });
    const res = await list(admin.jar, '?pageSize=200');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ page: 1, pageSize: 200 });
    const item = res.body.items.find((r: { Id: string }) => r.Id === id);
    expect(item).toMatchObject({
      UserId: user.id,
      UserName: user.userName,
      Status: 'Open',
      Changes: { Lastname: 'Murray', Acronym: '' },
      Current: { Firstname: 'Grace', Lastname: 'Hopper', Acronym: 'GH', Email: user.email },
    });
    expect(res.body.items.every((r: { Status: string }) => r.Status === 'Open')).toBe(true);
  });

  it('filters by status, searches by user, pages', async () => {
    const awaiting = await makeUser(host, admin.jar);
    const jar = await signedIn(host, awaiting);
    const pending = await submit(jar, { Email: `pending-${awaiting.userName}@example.test` });
    expect(pending.status).toBe(202);

    const open = await list(admin.jar, '?pageSize=200');
    expect(open.body.items.map((r: { Id: string }) => r.Id)).not.toContain(pending.body.Id);
    const waiting = await list(admin.jar, '?status=AwaitingEmailVerification');
    expect(waiting.body.items.map((r: { Id: string }) => r.Id)).toContain(pending.body.Id);
    const both = await list(admin.jar, `?status=open,awaitingemailverification&search=${awaiting.userName.toUpperCase()}`);
    expect(both.body).toMatchObject({ totalCount: 1 });
    expect(both.body.items[0].Id).toBe(pending.body.Id);

    await requester({ Firstname: 'Paged' });
    const page1 = await list(admin.jar, '?pageSize=1');
    const page2 = await list(admin.jar, '?pageSize=1&page=2');
    expect(page1.body.items).toHaveLength(1);
    expect(page1.body.totalCount).toBeGreaterThanOrEqual(2);
    expect(page2.body.items[0].Id).not.toBe(page1.body.items[0].Id);
    // Oldest first by default; sortDescending turns it round.
    const asc = (await list(admin.jar, '?pageSize=200')).body.items.map((r: { CreatedAt: string }) => r.CreatedAt);
    expect(asc).toEqual([...asc].sort());
    const desc = (await list(admin.jar, '?pageSize=200&sortDescending=true')).body.items.map((r: { CreatedAt: string }) => r.CreatedAt);
    expect(desc).toEqual([...asc].reverse());

    expectProblem(await list(admin.jar, '?status=Nope'), 400, 'Validation.Failed');
  });

  it('needs user:write', async () => {
    const plain = await makeUser(host, admin.jar);
    const jar = await signedIn(host, plain);
    expectProblem(await list(jar), 403, 'Auth.Forbidden');
    expectProblem(await api(host, 'GET', '/api/admin/change-requests'), 401);
    const reader = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['user:read'], reader.id);
    expectProblem(await list(await signedIn(host, reader)), 403, 'Auth.Forbidden');
  });
});

describe('approving', () => {
  it('applies names and clears in one go; the request becomes Approved', async () => {
    const { user, jar, id } = await requester({ Lastname: 'Murray', Acronym: null });
    const res = await approve(admin.jar, id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ Id: id, Status: 'Approved', Current: { Firstname: 'Grace', Lastname: 'Murray' } });
    expect(res.body.Current.Acronym).toBeUndefined();
    expect(typeof res.body.DecidedAt).toBe('string');
    const me = (await api(host, 'GET', '/api/account/me', { cookie: jar })).body;
    expect(me).toMatchObject({ Firstname: 'Grace', Lastname: 'Murray' });
    expect(me.Acronym).toBeUndefined();
    const row = (await api(host, 'GET', `/api/user/${user.id}`, { cookie: admin.jar })).body;
    expect(row.Lastname).toBe('Murray');
  });

  it('a new address arrives confirmed', async () => {
    const to = `confirmed-${Date.now()}@example.test`;
    const { user, id } = await verifiedEmailChange(to);
    expect((await approve(admin.jar, id)).status).toBe(200);
    const row = (await api(host, 'GET', `/api/user/${user.id}`, { cookie: admin.jar })).body;
    expect(row).toMatchObject({ Email: to, EmailConfirmed: true, Firstname: 'Renamed' });
  });

  it('checks the address again: taken since the request, the approval answers 409 and the request stays open', async () => {
    const to = `raced-${Date.now()}@example.test`;
    const { user, id } = await verifiedEmailChange(to);
    const squatter = await api(host, 'POST', '/api/user', { cookie: admin.jar, body: { UserName: `sq-${Date.now()}`, Email: to } });
    expect(squatter.status, squatter.text).toBe(201);
    expectProblem(await approve(admin.jar, id), 409, 'User.EmailTaken');
    const row = (await api(host, 'GET', `/api/user/${user.id}`, { cookie: admin.jar })).body;
    expect(row.Email).toBe(user.email);
    const still = (await list(admin.jar, '?pageSize=200')).body.items.find((r: { Id: string }) => r.Id === id);
    expect(still?.Status).toBe('Open');
    expect((await reject(admin.jar, id, { Reason: 'Address taken.' })).status).toBe(200);
  });

  it('answers 409 ChangeRequest.NotOpen for decided, cancelled and not yet verified requests, 404 for unknown ones', async () => {
    const { id } = await requester({ Firstname: 'Once' });
    expect((await approve(admin.jar, id)).status).toBe(200);
    expectProblem(await approve(admin.jar, id), 409, 'ChangeRequest.NotOpen');
    expectProblem(await reject(admin.jar, id), 409, 'ChangeRequest.NotOpen');

    const awaiting = await makeUser(host, admin.jar);
    const jar = await signedIn(host, awaiting);
    const pending = await submit(jar, { Email: `unverified-${awaiting.userName}@example.test` });
    expectProblem(await approve(admin.jar, pending.body.Id), 409, 'ChangeRequest.NotOpen');
    expectProblem(await reject(admin.jar, pending.body.Id), 409, 'ChangeRequest.NotOpen');

    expectProblem(await approve(admin.jar, '00000000-0000-4000-8000-00000000ffff'), 404, 'ChangeRequest.NotFound');
    expectProblem(await reject(admin.jar, '00000000-0000-4000-8000-00000000ffff'), 404, 'ChangeRequest.NotFound');
  });

  it('two administrators deciding at once: one wins, the other hears ChangeRequest.NotOpen', async () => {
    const { id } = await requester({ Firstname: 'Raced' });
    const [a, b] = await Promise.all([approve(admin.jar, id), reject(admin.jar, id, { Reason: 'No.' })]);
    expect([a.status, b.status].sort(), `${a.text}\n${b.text}`).toEqual([200, 409]);
    expectProblem(a.status === 409 ? a : b, 409, 'ChangeRequest.NotOpen');
  });

  it('follows the no-escalation rule: user:write alone cannot approve a change to an administrator', async () => {
    const operator = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['user:read', 'user:write'], operator.id);
    const opJar = await signedIn(host, operator);

    const adminRequest = await submit(admin.jar, { Acronym: 'ADM' });
    expect(adminRequest.status, adminRequest.text).toBe(200);
    const refused = await approve(opJar, adminRequest.body.Id);
    expectProblem(refused, 403, 'Auth.Forbidden');
    expect(refused.body.detail).toMatch(/realm:admin/);

    // A plain user's request is the operator's to decide.
    const { id } = await requester({ Firstname: 'Plain' });
    expect((await approve(opJar, id)).status).toBe(200);
    expect((await approve(admin.jar, adminRequest.body.Id)).status).toBe(200);
  });
});

describe('rejecting', () => {
  it('with or without a reason; the profile stays as it was', async () => {
    const { jar, id } = await requester({ Firstname: 'Nope' });
    const res = await reject(admin.jar, id, { Reason: '  Not your name.  ' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ Id: id, Status: 'Rejected', Reason: 'Not your name.' });
    expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).body.Firstname).toBe('Grace');

    const second = await submit(jar, { Firstname: 'Again' });
    const bare = await reject(admin.jar, second.body.Id);
    expect(bare.status).toBe(200);
    expect(bare.body.Reason).toBeUndefined();
    expectProblem(await reject(admin.jar, id, { Reason: 'x'.repeat(1001) }), 400, 'Validation.Failed');
  });
});

describe('security log', () => {
  it('records decisions', async () => {
    await eventually(async () => {
      const r = await api(host, 'GET', '/api/admin/auth-log?limit=1000', { cookie: admin.jar });
      const types = r.body.map((e: { EventType: string }) => e.EventType);
      expect(types).toEqual(expect.arrayContaining(['user.change-approved', 'user.change-rejected', 'user.change-requested']));
    });
  });
});
