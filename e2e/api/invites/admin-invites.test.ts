import { describe, expect, it } from 'vitest';
import { adminCookie, api, CP_HOST, createRealm, expectProblem, strongPassword, suite, uniqueSlug } from '../support/harness';

// POST /api/admin/realms/{slug}/admin-invites (spec 2.2, 3.3, 4.8).
const invite = (slug: string, body: unknown) => api(CP_HOST, 'POST', `/api/admin/realms/${slug}/admin-invites`, { body, cookie: adminCookie() });
const redeem = (url: URL, password = strongPassword()) =>
  api(url.host, 'POST', '/api/account/bootstrap-admin', { body: { Token: url.searchParams.get('token'), Password: password } });

describe('admin invites', () => {
  it("answers 201 with the invite; MagicLinkUrl is on the realm's primary domain", async () => {
    const { slug, domain } = await createRealm({ Domains: [`${uniqueSlug('p')}.localhost`, `${uniqueSlug('s')}.localhost`] });
    const res = await invite(slug, { UserName: 'boss', Email: 'boss@example.test', Firstname: 'B', Lastname: 'Oss' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.UserName).toBe('boss');
    expect(res.body.Email).toBe('boss@example.test');
    const expires = new Date(res.body.ExpiresAt).getTime();
    expect(Math.abs(expires - Date.now() - 24 * 3600 * 1000)).toBeLessThan(5 * 60 * 1000);
    const url = new URL(res.body.MagicLinkUrl);
    expect(url.hostname).toBe(domain);
    expect(url.port).toBe(String(suite().port));
    expect(url.pathname).toBe('/bootstrap');
    expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    // The token is not echoed anywhere else in the answer.
    expect(JSON.stringify({ ...res.body, MagicLinkUrl: undefined })).not.toContain(url.searchParams.get('token'));
  });

  it('the MagicLinkUrl page exists on the realm host', async () => {
    const { slug } = await createRealm();
    const res = await invite(slug, { UserName: 'boss', Email: 'boss@example.test' });
    const url = new URL(res.body.MagicLinkUrl);
    const page = await api(url.host, 'GET', `${url.pathname}${url.search}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.contentType).toMatch(/text\/html/);
  });

  it('a second invite revokes the first: the first token answers 400, the second works', async () => {
    const { slug } = await createRealm({ InitialAdmin: { UserName: 'boss', Email: 'boss@example.test' } });
    const first = await invite(slug, { UserName: 'boss', Email: 'boss@example.test' });
    const second = await invite(slug, { UserName: 'boss', Email: 'boss@example.test' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.MagicLinkUrl).not.toBe(first.body.MagicLinkUrl);
    const firstUrl = new URL(first.body.MagicLinkUrl);
    const revoked = await redeem(firstUrl);
    expectProblem(revoked, 400);
    expect(revoked.body.code).not.toBe('BootstrapInvite.TokenUsed');
    const ok = await redeem(new URL(second.body.MagicLinkUrl));
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.authenticated).toBe(true);
  });

  it('the create-time InitialAdmin invite is revoked by a later invite too', async () => {
    const { slug, body } = await createRealm({ InitialAdmin: { UserName: 'boss', Email: 'boss@example.test' } });
    const later = await invite(slug, { UserName: 'other', Email: 'other@example.test' });
    expect(later.status).toBe(201);
    expectProblem(await redeem(new URL(body.InitialAdminInvite.MagicLinkUrl)), 400);
    const ok = await redeem(new URL(later.body.MagicLinkUrl));
    expect(ok.status).toBe(200);
    expect(ok.body.userName).toBe('other');
  });

  it('answers 404 for an unknown realm', async () => {
    expectProblem(await invite(uniqueSlug('none'), { UserName: 'x', Email: 'x@example.test' }), 404);
  });

  it.each([
    [{ Email: 'x@example.test' }, 'UserName'],
    [{ UserName: 'x' }, 'Email'],
    [{ UserName: 'x', Email: 'not-an-email' }, 'Email'],
    [{ UserName: 42, Email: 'x@example.test' }, 'UserName'],
  ])('rejects %j (400, errors.%s)', async (body, field) => {
    const { slug } = await createRealm();
    const res = await invite(slug, body);
    expectProblem(res, 400, 'Validation.Failed');
    expect(Object.keys(res.body.errors)).toContain(field);
  });

  it('needs a session', async () => {
    const { slug } = await createRealm();
    expectProblem(await api(CP_HOST, 'POST', `/api/admin/realms/${slug}/admin-invites`, { body: { UserName: 'x', Email: 'x@example.test' } }), 401);
  });
});
