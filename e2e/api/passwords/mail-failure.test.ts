import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExtraServer } from '../support/extra-server';
import { api, bootstrapAdmin, createRealm, eventually, expectProblem, hostHeader, suite, type CookieJar, type SignedIn } from '../support/harness';
import { freePort, serverEnv, startServer, type ServerHandle } from '../support/server-process';
import { makeUser, signedIn, type MadeUser } from '../users/fixtures';

// When the mail server does not take a message: a failed send is logged and recorded in the
// security log as auth.mail-failed; anonymous flows keep their uniform answer, signed-in ones
// answer 503 Mail.SendFailed and leave nothing half-done. A second server shares the store but
// sends to an SMTP port nobody listens on.
let extra: ServerHandle;
let host: string;
let admin: SignedIn;
let user: MadeUser;
let userJar: CookieJar;

beforeAll(async () => {
  const realm = await createRealm();
  admin = await bootstrapAdmin(realm.slug);
  user = await makeUser(realm.host, admin.jar);
  userJar = await signedIn(realm.host, user);
  extra = await mailDownServer();
  host = hostHeader(realm.domain, extra.port);
}, 240_000);

afterAll(async () => {
  await extra?.stop();
});

/**
 * The second server. A production build runs beside the main server (startExtraServer). In
 * development mode startExtraServer would stop the main server and restart it from this test
 * file's worker, whose exit then leaves the restarted server without its output pipes; so a
 * development twin gets a Next build folder of its own instead and both run side by side.
 */
async function mailDownServer(): Promise<ServerHandle> {
  const s = suite();
  const smtp = { SMTP_URL: 'smtp://127.0.0.1:1' };
  if (s.mode !== 'dev') return startExtraServer({ name: 'mail-down', storage: 'shared', env: smtp });
  const port = await freePort();
  const env = serverEnv(port, s.storage, s.redisUrl, { ...smtp, GATEHOUSE_NEXT_DIST_DIR: '.next-mail-down' });
  return startServer({ name: 'mail-down', port, mode: 'dev', env, logDir: s.logDir, startTimeoutMs: 180_000 });
}

const call = (method: string, path: string, options: { cookie?: CookieJar; body?: unknown } = {}) => api(host, method, path, { ...options, port: extra.port });

async function mailFailures(purpose: string) {
  return eventually(async () => {
    const res = await call('GET', '/api/admin/auth-log?eventType=auth.mail-failed&limit=1000', { cookie: admin.jar });
    expect(res.status, res.text).toBe(200);
    const hits = res.body.filter((e: { Detail?: { purpose?: string } }) => e.Detail?.purpose === purpose);
    expect(hits.length).toBeGreaterThan(0);
    return { hits, text: res.text };
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
