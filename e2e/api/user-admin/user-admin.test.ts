import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, eventually, expectProblem, realmWithAdmin, signIn, suite, type CookieJar, type SignedIn } from '../support/harness';
import { mailCount, waitForMail } from '../support/mailbox';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { createClient } from '../support/oauth';
import { enrolTotp, expectLogged, passwordStep, patchSettings, ROOMY_SOURCE_LIMITS } from '../mfa/fixtures';
import { codeFlowTokens, rp, webClientBody } from '../oauth/fixtures';
import { grant, makeUser, signedIn, type MadeUser } from '../users/fixtures';

// User administration (spec 4.7): a person's sessions and force logout (session:read / session:write),
// and recovery after a lost device: resetting their TOTP and removing their passkeys (user:write),
// each under the no-escalation rule, with a fresh grace period where 2FA is required, a security-log
// entry and a notice mailed to the person. Also the security log filtered by person and time.

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const DAY = 86_400_000;

let host: string;
let admin: SignedIn;
/** Holds user:read, user:write, session:read and session:write: less than the realm administrator. */
let helpdesk: CookieJar;
/** Holds user:read only. */
let reader: CookieJar;
/** The realm administrator of another realm. */
let otherAdmin: SignedIn;
let otherHost: string;

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
  await patchSettings(host, admin.jar, { RateLimits: { ...ROOMY_SOURCE_LIMITS, 'passkey-login': { Source: { Points: 10_000, DurationSeconds: 60 } } } });
  const h = await makeUser(host, admin.jar);
  await grant(host, admin.jar, ['user:read', 'user:write', 'session:read', 'session:write'], h.id);
  helpdesk = await signedIn(host, h);
  const r = await makeUser(host, admin.jar);
  await grant(host, admin.jar, ['user:read'], r.id);
  reader = await signedIn(host, r);
  const other = await createRealm();
  otherHost = other.host;
  otherAdmin = await bootstrapAdmin(other.slug);
});

const path = (id: string, rest: string) => `/api/admin/users/${id}/${rest}`;

async function addPasskey(jar: CookieJar, auth: SoftAuthenticator, name: string): Promise<string> {
  const options = await api(host, 'POST', '/api/account/passkey/register-options', { cookie: jar, body: { DisplayName: name } });
  expect(options.status, options.text).toBe(200);
  const res = await api(host, 'POST', '/api/account/passkey/register', { cookie: jar, body: auth.create(options.body) });
  expect(res.status, res.text).toBe(200);
  return res.body.Id;
}

/** Every route of this file with the permission it needs, for the 401/403/404 checks. */
const ROUTES = [
  ['GET', 'sessions', 'session:read'],
  ['DELETE', 'sessions', 'session:write'],
  ['DELETE', 'mfa', 'user:write'],
  ['GET', 'passkeys', 'user:write'],
  ['DELETE', 'passkeys', 'user:write'],
  ['DELETE', `passkeys/${UNKNOWN}`, 'user:write'],
] as const;

describe('sessions', () => {
  it("lists the person's browser and client sessions; force logout ends them all and revokes the tokens", async () => {
    const user = await makeUser(host, admin.jar);
    const a = await signedIn(host, user);
    const b = await signedIn(host, user);
    const client = await createClient(host, admin.jar, webClientBody({ ClientId: `ua-${Date.now().toString(36)}` }));
    const config = await rp(host, client.ClientId, client.ClientSecret);
    const tokens = await codeFlowTokens(host, config, b, 'openid offline_access');

    const list = await api(host, 'GET', path(user.id, 'sessions'), { cookie: helpdesk });
    expect(list.status, list.text).toBe(200);
    expect(list.body.Sessions).toHaveLength(2);
    expect(list.body.Sessions.every((s: { IsCurrent: boolean; Methods: string[] }) => !s.IsCurrent && s.Methods.includes('pwd'))).toBe(true);
    expect(list.body.ClientSessions).toHaveLength(1);
    expect(list.body.ClientSessions[0]).toMatchObject({ ClientId: client.ClientId, ClientName: 'Web app' });
    expect(JSON.stringify(list.body)).not.toMatch(/tokenHash|payload/i);

    const del = await api(host, 'DELETE', path(user.id, 'sessions'), { cookie: helpdesk });
    expect(del.status, del.text).toBe(204);
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: a }), 401);
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: b }), 401);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await api(host, 'GET', path(user.id, 'sessions'), { cookie: helpdesk })).body).toEqual({ Sessions: [], ClientSessions: [] });
    // The helpdesk itself stays signed in.
    expect((await api(host, 'GET', '/api/account/me', { cookie: helpdesk })).status).toBe(200);
    await expectLogged(host, admin.jar, 'user.sessions-revoked', (e) => JSON.stringify(e.Detail).includes(user.id));
  });

  it("marks the caller's own session as current when administrators look at themselves", async () => {
    const list = await api(host, 'GET', path(admin.userId!, 'sessions'), { cookie: admin.jar });
    expect(list.status, list.text).toBe(200);
    expect(list.body.Sessions.filter((s: { IsCurrent: boolean }) => s.IsCurrent)).toHaveLength(1);
  });

  it('session:read reads but does not sign out; a stronger administrator cannot be signed out by the helpdesk', async () => {
    const user = await makeUser(host, admin.jar);
    const r = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['session:read'], r.id);
    const sessionReader = await signedIn(host, r);
    expect((await api(host, 'GET', path(user.id, 'sessions'), { cookie: sessionReader })).status).toBe(200);
    expectProblem(await api(host, 'DELETE', path(user.id, 'sessions'), { cookie: sessionReader }), 403, 'Auth.Forbidden');
    // Reading an administrator's sessions is fine; ending them is not.
    expect((await api(host, 'GET', path(admin.userId!, 'sessions'), { cookie: helpdesk })).status).toBe(200);
    expectProblem(await api(host, 'DELETE', path(admin.userId!, 'sessions'), { cookie: helpdesk }), 403, 'Auth.Forbidden');
    expect((await api(host, 'GET', '/api/account/me', { cookie: admin.jar })).status).toBe(200);
  });
});

describe('resetting two-factor sign-in', () => {
  it('turns TOTP off and removes the authenticator: the person signs in with the password alone, is told by mail, and it is logged', async () => {
    const user = await makeUser(host, admin.jar);
    await enrolTotp(host, await signedIn(host, user));
    expect((await passwordStep(host, user.userName, user.password)).res.body).toMatchObject({ requiresTwoFactor: true });
    const mails = await mailCount(user.email);

    const res = await api(host, 'DELETE', path(user.id, 'mfa'), { cookie: helpdesk });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ TwoFactorEnabled: false, HasAuthenticator: false, GracePeriodActive: false });
    expect(res.body.SecureSetupDueAt).toBeUndefined();
    expect((await passwordStep(host, user.userName, user.password)).res.body).toMatchObject({ authenticated: true });

    const mail = await waitForMail(user.email, { after: mails, subject: /two-step sign-in was reset/ });
    expect(mail.text).toContain('removed your authenticator app');
    expect(mail.links.some((l) => l.endsWith('/account'))).toBe(true);
    const logged = await expectLogged(host, admin.jar, 'user.two-factor-reset', (e) => JSON.stringify(e.Detail).includes(user.id));
    const entry = logged.find((e) => JSON.stringify(e.Detail).includes(user.id))!;
    expect(entry.Detail).toMatchObject({ userId: user.id, hadAuthenticator: true });

    // Nothing left to reset: the same answer, no second entry and no second mail.
    const again = await api(host, 'DELETE', path(user.id, 'mfa'), { cookie: helpdesk });
    expect(again.status, again.text).toBe(200);
    expect(again.body.TwoFactorEnabled).toBe(false);
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailCount(user.email)).toBe(mails + 1);
    const entries = (await api(host, 'GET', `/api/admin/auth-log?eventType=user.two-factor-reset&userId=${user.id}`, { cookie: admin.jar })).body;
    expect(entries).toHaveLength(1);
  });

  it('where 2FA is required, the person gets a fresh grace period', async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, a.jar, { TwoFactor: { Required: true, GracePeriodDays: 5 } });
    const user = await makeUser(realm.host, a.jar);
    await enrolTotp(realm.host, (await passwordStep(realm.host, user.userName, user.password)).jar);
    const res = await api(realm.host, 'DELETE', path(user.id, 'mfa'), { cookie: a.jar });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ TwoFactorEnabled: false, TwoFactorRequired: true, GracePeriodActive: true });
    expect(Math.abs(new Date(res.body.SecureSetupDueAt).getTime() - (Date.now() + 5 * DAY))).toBeLessThan(120_000);
    const { res: login } = await passwordStep(realm.host, user.userName, user.password);
    expect(login.body).toMatchObject({ authenticated: true, requiresSecureSetup: true, gracePeriod: true });
    const mail = await waitForMail(user.email, { subject: /two-step sign-in was reset/ });
    expect(mail.text).toContain('within 5 days');
  });
});

describe('removing passkeys', () => {
  it('lists them, removes one by id and then the rest; removed ones no longer sign in; the person is told', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const auth = new SoftAuthenticator(suite().port);
    const laptop = await addPasskey(jar, auth, 'Laptop');
    await addPasskey(jar, auth, 'Phone');
    const mails = await mailCount(user.email);

    const list = await api(host, 'GET', path(user.id, 'passkeys'), { cookie: helpdesk });
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((p: { DisplayName: string }) => p.DisplayName)).toEqual(['Laptop', 'Phone']);
    expect(JSON.stringify(list.body)).not.toMatch(/publicKey|credentialId/i);

    const one = await api(host, 'DELETE', path(user.id, `passkeys/${laptop}`), { cookie: helpdesk });
    expect(one.status, one.text).toBe(200);
    expect(one.body.PasskeyCount).toBe(1);
    expectProblem(await api(host, 'DELETE', path(user.id, `passkeys/${laptop}`), { cookie: helpdesk }), 404, 'Passkey.NotFound');
    await waitForMail(user.email, { after: mails, subject: /A passkey was removed/ });

    // The removed credential no longer signs in.
    const options = (await api(host, 'POST', '/api/account/passkey/login-options', { body: {} })).body;
    const refused = await api(host, 'POST', '/api/account/passkey/login', { body: auth.get(options, { use: auth.credentials[0] }) });
    expect(refused.status).toBeGreaterThanOrEqual(400);

    const all = await api(host, 'DELETE', path(user.id, 'passkeys'), { cookie: helpdesk });
    expect(all.status, all.text).toBe(200);
    expect(all.body.PasskeyCount).toBe(0);
    expect((await api(host, 'GET', path(user.id, 'passkeys'), { cookie: helpdesk })).body).toEqual([]);
    await waitForMail(user.email, { after: mails + 1, subject: /A passkey was removed/ });
    await expectLogged(host, admin.jar, 'user.passkeys-removed', (e) => (e.Detail as { passkeyId?: string }).passkeyId === laptop);
    // Nothing left: 200, no mail.
    expect((await api(host, 'DELETE', path(user.id, 'passkeys'), { cookie: helpdesk })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailCount(user.email)).toBe(mails + 2);
  });

  it("refuses another person's passkey (404) and starts a fresh grace period where 2FA is required", async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, a.jar, { TwoFactor: { Required: true, GracePeriodDays: 2 } });
    const user = await makeUser(realm.host, a.jar);
    const other = await makeUser(realm.host, a.jar);
    const jar = (await passwordStep(realm.host, user.userName, user.password)).jar;
    const auth = new SoftAuthenticator(suite().port);
    const options = await api(realm.host, 'POST', '/api/account/passkey/register-options', { cookie: jar, body: {} });
    const key = (await api(realm.host, 'POST', '/api/account/passkey/register', { cookie: jar, body: auth.create(options.body) })).body.Id;
    expectProblem(await api(realm.host, 'DELETE', path(other.id, `passkeys/${key}`), { cookie: a.jar }), 404, 'Passkey.NotFound');
    const res = await api(realm.host, 'DELETE', path(user.id, 'passkeys'), { cookie: a.jar });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ PasskeyCount: 0, TwoFactorRequired: true, GracePeriodActive: true });
    expect(Math.abs(new Date(res.body.SecureSetupDueAt).getTime() - (Date.now() + 2 * DAY))).toBeLessThan(120_000);
  });
});

describe('every route', () => {
  let user: MadeUser;
  beforeAll(async () => {
    user = await makeUser(host, admin.jar);
  });

  it('needs a session (401)', async () => {
    for (const [method, rest] of ROUTES) expectProblem(await api(host, method, path(user.id, rest)), 401);
  });

  it('needs its permission (403): user:read alone is not enough, and a session permission does not open the recovery routes', async () => {
    for (const [method, rest] of ROUTES) expectProblem(await api(host, method, path(user.id, rest), { cookie: reader }), 403, 'Auth.Forbidden');
    const s = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['session:read', 'session:write'], s.id);
    const sessionsOnly = await signedIn(host, s);
    for (const [method, rest, permission] of ROUTES) {
      if (permission.startsWith('session:')) continue;
      expectProblem(await api(host, method, path(user.id, rest), { cookie: sessionsOnly }), 403, 'Auth.Forbidden');
    }
  });

  it('answers 404 for an unknown user and for a user of another realm', async () => {
    const foreign = await makeUser(otherHost, otherAdmin.jar);
    for (const [method, rest] of ROUTES) {
      expectProblem(await api(host, method, path(UNKNOWN, rest), { cookie: admin.jar }), 404, 'User.NotFound');
      expectProblem(await api(host, method, path(foreign.id, rest), { cookie: admin.jar }), 404, 'User.NotFound');
    }
  });

  it('refuses to change someone who holds more than the caller (403), and changes nothing', async () => {
    await enrolTotp(host, admin.jar);
    for (const [method, rest] of ROUTES) {
      if (method === 'GET') continue;
      expectProblem(await api(host, method, path(admin.userId!, rest), { cookie: helpdesk }), 403, 'Auth.Forbidden');
    }
    const info = await api(host, 'GET', path(admin.userId!, 'security-info'), { cookie: admin.jar });
    expect(info.body.TwoFactorEnabled).toBe(true);
    expect((await api(host, 'GET', '/api/account/me', { cookie: admin.jar })).status).toBe(200);
    // The administrator may reset their own (it is theirs to lose).
    expect((await api(host, 'DELETE', path(admin.userId!, 'mfa'), { cookie: admin.jar })).body.TwoFactorEnabled).toBe(false);
  });

  it('refuses a deleted user with 409 on the recovery routes', async () => {
    const gone = await makeUser(host, admin.jar);
    expect((await api(host, 'DELETE', `/api/user/${gone.id}`, { cookie: admin.jar })).status).toBe(204);
    expectProblem(await api(host, 'DELETE', path(gone.id, 'mfa'), { cookie: admin.jar }), 409, 'User.Deleted');
    expectProblem(await api(host, 'DELETE', path(gone.id, 'passkeys'), { cookie: admin.jar }), 409, 'User.Deleted');
  });
});

describe('the security log by person and time', () => {
  it("shows what the person did and what was done to their account, and nobody else's entries", async () => {
    const user = await makeUser(host, admin.jar);
    const bystander = await makeUser(host, admin.jar);
    await signIn(host, user.userName, user.password);
    await signIn(host, bystander.userName, bystander.password);
    await api(host, 'DELETE', path(user.id, 'sessions'), { cookie: helpdesk });
    const log = (query: string) => api(host, 'GET', `/api/admin/auth-log${query}`, { cookie: admin.jar });
    const entries = await eventually(async () => {
      const res = await log(`?userId=${user.id}`);
      expect(res.status, res.text).toBe(200);
      const types = res.body.map((e: { EventType: string }) => e.EventType);
      expect(types).toEqual(expect.arrayContaining(['auth.login-succeeded', 'user.sessions-revoked', 'user.created']));
      return res.body as { EventType: string; UserId?: string; Detail?: unknown; CreatedAt: string }[];
    });
    for (const e of entries) expect(e.UserId === user.id || JSON.stringify(e.Detail).includes(user.id), JSON.stringify(e)).toBe(true);
    expect(JSON.stringify(entries)).not.toContain(bystander.id);
    // The person's and the type filter together.
    const revoked = (await log(`?userId=${user.id}&eventType=user.sessions-revoked`)).body;
    expect(revoked).toHaveLength(1);
    expect(revoked[0].UserName).not.toBe(user.userName); // the helpdesk acted

    // The time window: a bare day is the whole day (UTC); instants are exact.
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    expect((await log(`?userId=${user.id}&from=${today}&to=${today}`)).body.length).toBe(entries.length);
    expect((await log(`?userId=${user.id}&from=${tomorrow}`)).body).toEqual([]);
    expect((await log(`?userId=${user.id}&to=${yesterday}`)).body).toEqual([]);
    const newest = entries[0].CreatedAt;
    const upTo = (await log(`?userId=${user.id}&to=${encodeURIComponent(newest)}`)).body;
    expect(upTo.length).toBe(entries.length);
    const after = (await log(`?userId=${user.id}&from=${encodeURIComponent(new Date(Date.parse(newest) + 1).toISOString())}`)).body;
    expect(after).toEqual([]);
  });

  it('refuses a malformed date, an end before the start and a malformed user id with friendly messages', async () => {
    const bad = async (query: string, field: string, message: RegExp) => {
      const res = await api(host, 'GET', `/api/admin/auth-log${query}`, { cookie: admin.jar });
      expectProblem(res, 400, 'Validation.Failed');
      const messages: string[] = Object.entries(res.body.errors as Record<string, string[]>).find(([k]) => k.toLowerCase() === field.toLowerCase())?.[1] ?? [];
      expect(messages.join(' '), res.text).toMatch(message);
    };
    await bad('?from=last-week', 'from', /Enter a date like/);
    await bad('?from=2025-05-02&to=2025-05-01', 'to', /end must not be before the start/);
    await bad('?userId=%25', 'userId', /Enter a user id/);
  });

  it('needs auth-log:read', async () => {
    expectProblem(await api(host, 'GET', '/api/admin/auth-log?userId=x', { cookie: reader }), 403, 'Auth.Forbidden');
  });
});
