import { describe, expect, it } from 'vitest';
import { api, cliInvite, CookieJar, createRealm, expectProblem, strongPassword, uniqueSlug } from '../support/harness';

const PASSWORD = strongPassword();

// POST /api/account/bootstrap-admin (spec 3.3, 4.1, 5.8, 7, 8). Each test uses its own realm: the
// bootstrap rate limit counts every attempt per source address and realm.
const bootstrap = (host: string, body: unknown, cookie?: CookieJar) => api(host, 'POST', '/api/account/bootstrap-admin', { body, cookie });

async function realmWithInvite() {
  const realm = await createRealm();
  const url = await cliInvite({ realm: realm.slug, email: `boss-${uniqueSlug('u')}@example.test`, userName: 'boss' });
  return { ...realm, url, token: url.searchParams.get('token')! };
}

describe('bootstrap-admin', () => {
  it('redeems the CLI invite: 200, sets the session cookie, me works and shows realm:admin', async () => {
    const { url, token, slug } = await realmWithInvite();
    const jar = new CookieJar();
    const res = await bootstrap(url.host, { Token: token, Password: PASSWORD }, jar);
    expect(res.status, res.text).toBe(200);
    expect(res.body.authenticated).toBe(true);
    expect(res.setCookies.some((c) => /HttpOnly/i.test(c) && /SameSite=Lax/i.test(c) && /Path=\//i.test(c))).toBe(true);
    expect(res.setCookies.join(';')).not.toMatch(/Domain=/i);
    expect(jar.size).toBeGreaterThan(0);
    const me = await api(url.host, 'GET', '/api/account/me', { cookie: jar });
    expect(me.status).toBe(200);
    expect(me.body.UserName).toBe('boss');
    expect(me.body.Realm).toBe(slug);
    expect(me.body.Permissions).toContain('realm:admin');
    // And the password chosen works for a normal sign-in.
    const login = await api(url.host, 'POST', '/api/account/login', { body: { UserName: 'boss', Password: PASSWORD } });
    expect(login.status).toBe(200);
  });

  it('a used token answers 400 BootstrapInvite.TokenUsed', async () => {
    const { url, token } = await realmWithInvite();
    expect((await bootstrap(url.host, { Token: token, Password: PASSWORD })).status).toBe(200);
    const again = await bootstrap(url.host, { Token: token, Password: strongPassword() });
    expectProblem(again, 400, 'BootstrapInvite.TokenUsed');
    // The second attempt did not change the password.
    const old = await api(url.host, 'POST', '/api/account/login', { body: { UserName: 'boss', Password: PASSWORD } });
    expect(old.status).toBe(200);
  });

  it('a junk token answers 400', async () => {
    const { url } = await realmWithInvite();
    const res = await bootstrap(url.host, { Token: 'x'.repeat(43), Password: PASSWORD });
    expectProblem(res, 400);
    expect(res.body.code).not.toBe('BootstrapInvite.TokenUsed');
    expect(res.setCookies).toEqual([]);
  });

  it("a token is only valid on its own realm's host", async () => {
    const { token } = await realmWithInvite();
    const other = await createRealm();
    expectProblem(await bootstrap(other.host, { Token: token, Password: PASSWORD }), 400);
  });

  it('a weak password answers 400 (Validation.Failed or User.PasswordTooWeak) and keeps the token usable', async () => {
    const { url, token } = await realmWithInvite();
    const weak = await bootstrap(url.host, { Token: token, Password: 'short' });
    expectProblem(weak, 400);
    expect(['Validation.Failed', 'User.PasswordTooWeak']).toContain(weak.body.code);
    expect(Object.keys(weak.body.errors ?? {})).toContain('Password');
    const ok = await bootstrap(url.host, { Token: token, Password: PASSWORD });
    expect(ok.status, ok.text).toBe(200);
  });

  it.each([{}, { Token: 'abc' }, { Password: PASSWORD }, { Token: 5, Password: PASSWORD }])('rejects %j with 400 Validation.Failed', async (body) => {
    const { url } = await realmWithInvite();
    expectProblem(await bootstrap(url.host, body), 400, 'Validation.Failed');
  });

  it('accepts property names in any casing', async () => {
    const { url, token } = await realmWithInvite();
    const res = await bootstrap(url.host, { token, PASSWORD: PASSWORD });
    expect(res.status, res.text).toBe(200);
  });

  it('the 11th attempt from one address in 15 minutes answers 429 with Retry-After and the rate-limit body', async () => {
    const { url, slug } = await realmWithInvite();
    for (let i = 1; i <= 10; i++) {
      const res = await bootstrap(url.host, { Token: `junk-token-${i}`.padEnd(43, 'x'), Password: PASSWORD });
      expect(res.status, `attempt ${i}: ${res.text}`).toBe(400);
    }
    const limited = await bootstrap(url.host, { Token: 'junk-token-11'.padEnd(43, 'x'), Password: PASSWORD });
    expect(limited.status, limited.text).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(limited.body).toMatchObject({ error: 'rate_limited', policy: 'bootstrap', dimension: 'source' });
    expect(limited.body.retryAfterSeconds).toBe(retryAfter);
    expect(limited.contentType).toMatch(/json/);
    // A valid token is refused too while the limit holds.
    const fresh = await cliInvite({ realm: slug, email: 'late@example.test', userName: 'late' });
    expect((await bootstrap(url.host, { Token: fresh.searchParams.get('token'), Password: PASSWORD })).status).toBe(429);
  });

  // The limit is counted per realm and address (a limited realm does not lock out the others).
  it("another realm's bootstrap still works after one realm hit the limit", async () => {
    const { url, token } = await realmWithInvite();
    const res = await bootstrap(url.host, { Token: token, Password: PASSWORD });
    expect(res.status).toBe(200);
  });
});
