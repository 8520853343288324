import { describe, expect, it } from 'vitest';
import {
  adminCookie,
  api,
  CP_HOST,
  createRealm,
  expectProblem,
  hostHeader,
  postRealm,
  realmDomain,
  strongPassword,
  suite,
  uniqueSlug,
} from '../support/harness';

// POST /api/admin/realms (spec 2.1, 4.8, 8).
describe('create a realm', () => {
  it('answers 201 { Realm } with the fields of spec 2.1, and the realm serves its domain at once', async () => {
    const slug = uniqueSlug('c');
    const before = Date.now();
    const res = await postRealm({ Slug: slug, DisplayName: 'Acme Corp', Description: 'A test realm', Domains: [realmDomain(slug), `${slug}.example.test`] });
    expect(res.status, res.text).toBe(201);
    expect(res.contentType).toMatch(/^application\/json/);
    const r = res.body.Realm;
    expect(r.Id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    expect(r.Slug).toBe(slug);
    expect(r.DisplayName).toBe('Acme Corp');
    expect(r.Description).toBe('A test realm');
    expect(r.Domains).toEqual([realmDomain(slug), `${slug}.example.test`]);
    expect(r.PrimaryDomain).toBe(realmDomain(slug));
    expect(r.ApplicationDomains).toEqual({});
    expect(r.IsControlPlane).toBe(false);
    expect(r.IsActive).toBe(true);
    expect(new Date(r.CreatedAt).getTime()).toBeGreaterThanOrEqual(before - 60_000);
    // No InitialAdmin was sent: the invite is omitted or null.
    expect(res.body.InitialAdminInvite ?? null).toBeNull();

    for (const domain of [realmDomain(slug), `${slug}.example.test`]) {
      const info = await api(hostHeader(domain), 'GET', '/api/app-info');
      expect(info.status).toBe(200);
      expect(info.body.Realm).toBe(slug);
      expect(info.body.IsControlPlane).toBe(false);
    }
  });

  it('with InitialAdmin returns the invite; its link is on the primary domain and redeems once', async () => {
    const slug = uniqueSlug('c');
    const res = await postRealm({ Slug: slug, InitialAdmin: { UserName: 'first', Email: 'first@example.test', Firstname: 'Ada', Lastname: 'Lovelace' } });
    expect(res.status, res.text).toBe(201);
    const invite = res.body.InitialAdminInvite;
    expect(invite.UserName).toBe('first');
    expect(invite.Email).toBe('first@example.test');
    const expires = new Date(invite.ExpiresAt).getTime();
    expect(Math.abs(expires - (Date.now() + 24 * 3600 * 1000))).toBeLessThan(5 * 60 * 1000);
    const url = new URL(invite.MagicLinkUrl);
    expect(url.protocol).toBe('http:');
    expect(url.hostname).toBe(realmDomain(slug));
    expect(url.port).toBe(String(suite().port));
    expect(url.pathname).toBe('/bootstrap');
    const token = url.searchParams.get('token');
    expect(token && token.length).toBeGreaterThanOrEqual(20);

    const redeem = await api(url.host, 'POST', '/api/account/bootstrap-admin', { body: { Token: token, Password: strongPassword() } });
    expect(redeem.status, redeem.text).toBe(200);
    expect(redeem.body.authenticated).toBe(true);
    const again = await api(url.host, 'POST', '/api/account/bootstrap-admin', { body: { Token: token, Password: strongPassword() } });
    expectProblem(again, 400, 'BootstrapInvite.TokenUsed');
  });

  it('lower-cases the domains it stores', async () => {
    const slug = uniqueSlug('c');
    const res = await postRealm({ Slug: slug, Domains: [realmDomain(slug).toUpperCase()] });
    expect(res.status, res.text).toBe(201);
    expect(res.body.Realm.Domains).toEqual([realmDomain(slug)]);
  });

  it('needs a session (401) and answers problem+json', async () => {
    const res = await api(CP_HOST, 'POST', '/api/admin/realms', { body: { Slug: uniqueSlug(), DisplayName: 'x', Domains: ['x.localhost'] } });
    expectProblem(res, 401);
  });
});

describe('slug rules', () => {
  const created = async (slug: string) => {
    const res = await postRealm({ Slug: slug, Domains: [`${uniqueSlug('d')}.localhost`] });
    expect(res.status, res.text).toBe(201);
    expect(res.body.Realm.Slug).toBe(slug);
  };
  const rejected = async (slug: string) => {
    const res = await postRealm({ Slug: slug, Domains: [`${uniqueSlug('d')}.localhost`] });
    expectProblem(res, 400);
    // The answer names the slug as the field at fault.
    expect(JSON.stringify(res.body.errors ?? {})).toMatch(/slug/i);
    return res;
  };

  it('accepts 3 and 63 characters', async () => {
    const hex = uniqueSlug('s').replace(/-/g, ''); // "s<10 hex>"
    await created(`a${hex.slice(-2)}`);
    await created(hex.padEnd(63, 'x'));
  });

  it('rejects 2 and 64 characters', async () => {
    await rejected('ab');
    await rejected(uniqueSlug('s').replace(/-/g, '').padEnd(64, 'x'));
  });

  it.each(['Upper', '1starts-with-digit', '-leading', 'trailing-', 'has_underscore', 'has.dot', 'has space', 'ünïcode', ''])('rejects %j', async (slug) => {
    await rejected(slug);
  });

  it.each(['system', 'health', 'swagger', 'api', 'connect'])('rejects the reserved word %s', async (slug) => {
    const res = await rejected(slug);
    expect(res.body.code).toMatch(/reserved/i);
  });

  it('rejects a missing slug with Validation.Failed naming Slug', async () => {
    const res = await api(CP_HOST, 'POST', '/api/admin/realms', { body: { DisplayName: 'x', Domains: ['no-slug.localhost'] }, cookie: adminCookie() });
    expectProblem(res, 400, 'Validation.Failed');
    expect(Object.keys(res.body.errors)).toContain('Slug');
  });
});

describe('other create rules', () => {
  it('refuses IsControlPlane in the body (read-only)', async () => {
    const slug = uniqueSlug('c');
    for (const value of [true, false]) {
      const res = await postRealm({ Slug: slug, ...({ IsControlPlane: value } as object) });
      expectProblem(res, 400, 'Validation.Failed');
      expect(Object.keys(res.body.errors)).toContain('IsControlPlane');
    }
    const get = await api(CP_HOST, 'GET', `/api/admin/realms/${slug}`, { cookie: adminCookie() });
    expect(get.status).toBe(404);
  });

  it('refuses IsControlPlane in any casing', async () => {
    const res = await postRealm({ Slug: uniqueSlug('c'), ...({ isControlPlane: true } as object) });
    expectProblem(res, 400, 'Validation.Failed');
  });

  it('requires DisplayName and at least one domain', async () => {
    const slug = uniqueSlug('c');
    const noName = await api(CP_HOST, 'POST', '/api/admin/realms', { body: { Slug: slug, Domains: [realmDomain(slug)] }, cookie: adminCookie() });
    expectProblem(noName, 400, 'Validation.Failed');
    expect(Object.keys(noName.body.errors)).toContain('DisplayName');
    const noDomains = await postRealm({ Slug: slug, Domains: [] });
    expectProblem(noDomains, 400);
  });

  it.each(['not a host', 'http://x.example', 'a..b', ''])('rejects the domain %j', async (domain) => {
    const res = await postRealm({ Slug: uniqueSlug('c'), Domains: [domain] });
    expectProblem(res, 400);
  });

  it('answers 409 for a slug that exists', async () => {
    const { slug } = await createRealm();
    const res = await postRealm({ Slug: slug, Domains: [`${uniqueSlug('d')}.localhost`] });
    expectProblem(res, 409);
  });

  it('answers 409 for a domain another realm uses, including the control plane', async () => {
    const { domain } = await createRealm();
    const res = await postRealm({ Slug: uniqueSlug('c'), Domains: [domain] });
    expectProblem(res, 409);
    const cp = await postRealm({ Slug: uniqueSlug('c'), Domains: [CP_HOST] });
    expectProblem(cp, 409);
    const cpUpper = await postRealm({ Slug: uniqueSlug('c'), Domains: ['LOCALHOST'] });
    expectProblem(cpUpper, 409);
  });

  it('a rejected create leaves nothing behind: the slug is still free', async () => {
    const slug = uniqueSlug('c');
    const { domain } = await createRealm();
    expectProblem(await postRealm({ Slug: slug, Domains: [domain] }), 409);
    const retry = await postRealm({ Slug: slug });
    expect(retry.status, retry.text).toBe(201);
  });

  it('concurrent creates of one slug: exactly one 201, the others 409', async () => {
    const slug = uniqueSlug('race');
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => postRealm({ Slug: slug, Domains: [`${slug}-${i}.localhost`] })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses, results.map((r) => r.text).join('\n')).toEqual([201, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expectProblem(r, 409);
    const winner = results.find((r) => r.status === 201)!;
    const list = await api(CP_HOST, 'GET', `/api/admin/realms?search=${slug}`, { cookie: adminCookie() });
    expect(list.body.items.map((r: { Slug: string }) => r.Slug)).toEqual([slug]);
    expect(list.body.items[0].Domains).toEqual(winner.body.Realm.Domains);
    // The losers' domains were not registered.
    for (let i = 0; i < 5; i++) {
      const d = `${slug}-${i}.localhost`;
      const status = (await api(hostHeader(d), 'GET', '/api/app-info')).status;
      expect(status).toBe(winner.body.Realm.Domains.includes(d) ? 200 : 404);
    }
  });

  it('concurrent creates claiming one domain: exactly one 201', async () => {
    const domain = `${uniqueSlug('shared')}.localhost`;
    const results = await Promise.all(Array.from({ length: 4 }, () => postRealm({ Slug: uniqueSlug('dom'), Domains: [domain] })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
  });
});
