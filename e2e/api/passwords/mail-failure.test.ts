import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExtraServer, type ExtraServer } from '../support/extra-server';
import { api, bootstrapAdmin, CP_HOST, createRealm, eventually, expectProblem, hostHeader, type CookieJar, type SignedIn } from '../support/harness';
import { makeUser, signedIn, type MadeUser } from '../users/fixtures';

// When the mail server does not take a message: a failed send is logged and recorded in the
// security log as auth.mail-failed; anonymous flows keep their uniform answer, signed-in ones
// answer 503 Mail.SendFailed and leave nothing half-done. A second server shares the store but
// sends to an SMTP port nobody listens on.
let extra: ExtraServer;
let host: string;
let admin: SignedIn;
let user: MadeUser;
let userJar: CookieJar;

beforeAll(async () => {
  const realm = await createRealm();
  admin = await bootstrapAdmin(realm.slug);
  user = await makeUser(realm.host, admin.jar);
  userJar = await signedIn(realm.host, user);
  extra = await startExtraServer({ name: 'mail-down', storage: 'shared', env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
  host = hostHeader(realm.domain, extra.port);
});

afterAll(async () => {
  await extra?.stop();
  // In development mode the main server was stopped for the extra one and has just restarted;
  // let it finish compiling before the next test file talks to it.
  const deadline = Date.now() + 170_000;
  while (Date.now() < deadline) {
    const ping = await api(CP_HOST, 'GET', '/api/ping', { timeoutMs: 30_000 }).catch(() => undefined);
    if (ping?.status === 200) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const t0 = Date.now();
  const r = await api(CP_HOST, 'POST', '/api/admin/realms', { cookie: (await import('../support/harness')).adminCookie(), body: { Slug: `dbg-${Date.now()}`, DisplayName: 'x', Domains: [`dbg-${Date.now()}.localhost`] }, timeoutMs: 200_000 }).catch((e) => e);
  console.log('DEBUG realm create after restart', Date.now() - t0, r?.status ?? String(r));
}, 400_000);

const call = (method: string, path: string, options: { cookie?: CookieJar; body?: unknown } = {}) => api(host, method, path, { ...options, port: extra.port });

async function mailFailures(purpose: string) {
  return eventually(async () => {
    const res = await call('GET', '/api/admin/auth-log?eventType=auth.mail-failed&limit=1000', { cookie: admin.jar });
    expect(res.status, res.text).toBe(200);
    const hits = res.body.filter((e: { Detail?: { purpose?: string } }) => e.Detail?.purpose === purpose);
    expect(hits.length).toBeGreaterThan(0);
    return { hits, text: res.text as string };
  });
}

describe('a mail server that refuses', () => {
  it('forgot-password still answers 200 {} and the failure is in the security log', async () => {
    const res = await call('POST', '/api/account/forgot-password', { body: { Email: user.email } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({});
    const { hits, text } = await mailFailures('password-reset');
    expect(hits[0]).toMatchObject({ Category: 'Authentication', Success: false, UserId: user.id });
    expect(text).not.toContain(user.email);
  });

  it('send-verification answers 503 Mail.SendFailed and logs it', async () => {
    expectProblem(await call('POST', '/api/account/email/send-verification', { cookie: userJar }), 503, 'Mail.SendFailed');
    await mailFailures('email-verification');
  });

  it('an e-mail change request answers 503 and leaves no pending request behind', async () => {
    const res = await call('PUT', '/api/account/profile/request', { cookie: userJar, body: { Email: `new-${user.email}` } });
    expectProblem(res, 503, 'Mail.SendFailed');
    await mailFailures('profile-email');
    expect((await call('GET', '/api/account/profile/request', { cookie: userJar })).body).toEqual({});
    // A request that needs no mail still goes through.
    expect((await call('PUT', '/api/account/profile/request', { cookie: userJar, body: { Firstname: 'Still' } })).status).toBe(200);
  });
});
