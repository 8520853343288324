import { describe, expect, it } from 'vitest';
import { adminCookie, api, CP_HOST, createRealm, expectNoLeak, expectProblem, hostHeader, realmDomain, suite, uniqueSlug } from '../support/harness';

// CONTRACT.md "Wire rules": problem+json errors with named codes, Validation.Failed with errors by
// field, body limits and media types, case-insensitive property names, nulls omitted; and the CSRF
// rule for cookie-authenticated writes.
const asAdmin = (method: string, path: string, options: Parameters<typeof api>[3] = {}) => api(CP_HOST, method, path, { cookie: adminCookie(), ...options });

describe('request bodies', () => {
  it('malformed JSON answers 400 Request.MalformedJson', async () => {
    for (const raw of ['{', '{"Slug": }', 'not json', '{"a":1}}']) {
      const res = await asAdmin('POST', '/api/admin/realms', { rawBody: raw });
      expectProblem(res, 400, 'Request.MalformedJson');
    }
  });

  it('malformed JSON on an anonymous route answers 400 Request.MalformedJson', async () => {
    expectProblem(await api(CP_HOST, 'POST', '/api/account/login', { rawBody: '{"UserName":' }), 400, 'Request.MalformedJson');
  });

  it('wrong types answer 400 Validation.Failed with errors keyed by field', async () => {
    const res = await asAdmin('POST', '/api/admin/realms', { body: { Slug: 12, DisplayName: ['x'], Domains: 'one.localhost' } });
    expectProblem(res, 400, 'Validation.Failed');
    expect(res.body.errors).toBeTypeOf('object');
    for (const field of ['Slug', 'DisplayName', 'Domains']) {
      expect(Object.keys(res.body.errors)).toContain(field);
      expect(Array.isArray(res.body.errors[field])).toBe(true);
      expect(res.body.errors[field].length).toBeGreaterThan(0);
      for (const m of res.body.errors[field]) expect(typeof m).toBe('string');
    }
  });

  it('a JSON body that is not an object answers 400', async () => {
    for (const raw of ['[]', '"text"', '42', 'null']) {
      const res = await api(CP_HOST, 'POST', '/api/account/login', { rawBody: raw });
      expectProblem(res, 400);
    }
  });

  it('a 2 MB body answers 413', async () => {
    const big = JSON.stringify({ UserName: 'x', Password: 'p'.repeat(2 * 1024 * 1024) });
    const res = await api(CP_HOST, 'POST', '/api/account/login', { rawBody: big });
    expectProblem(res, 413);
  });

  it('a 2 MB body sent without Content-Length (chunked) answers 413', async () => {
    const big = JSON.stringify({ Slug: 'x'.repeat(2 * 1024 * 1024) });
    const res = await asAdmin('POST', '/api/admin/realms', { rawBody: big, headers: { 'transfer-encoding': 'chunked' } });
    expectProblem(res, 413);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'])(
    'Content-Type %s answers 415',
    async (type) => {
      const res = await api(CP_HOST, 'POST', '/api/account/login', { rawBody: '{"UserName":"a","Password":"b"}', contentType: type });
      expectProblem(res, 415);
    },
  );

  it('a body without Content-Type answers 415', async () => {
    const res = await api(CP_HOST, 'POST', '/api/account/login', { rawBody: '{"UserName":"a","Password":"b"}', contentType: null });
    expectProblem(res, 415);
  });

  it('application/json with a charset, and +json types, are accepted', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
      const res = await api(CP_HOST, 'POST', '/api/account/login', { rawBody: '{"UserName":"nobody","Password":"wrong-password"}', contentType: type });
      expectProblem(res, 401);
    }
  });

  it('request property names match in any casing, nested ones too', async () => {
    const slug = uniqueSlug('case');
    const res = await asAdmin('POST', '/api/admin/realms', {
      body: { slug, DISPLAYNAME: 'Casing', domains: [realmDomain(slug)], initialadmin: { username: 'cased', EMAIL: 'cased@example.test' } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.Realm.DisplayName).toBe('Casing');
    expect(res.body.InitialAdminInvite.UserName).toBe('cased');
  });
});

describe('answers', () => {
  it('omit null members', async () => {
    const { slug } = await createRealm();
    const res = await asAdmin('GET', `/api/admin/realms/${slug}`);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('null');
    expect('Description' in res.body).toBe(false);
  });

  it('are PascalCase with ISO timestamps and string-valued enums/flags', async () => {
    const { body } = await createRealm();
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['Realm']));
    expect(body.Realm.CreatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    for (const k of Object.keys(body.Realm)) expect(k[0]).toBe(k[0].toUpperCase());
  });

  it('unknown API paths on a realm host answer 404', async () => {
    const res = await asAdmin('GET', '/api/does-not-exist');
    expect(res.status).toBe(404);
    expectNoLeak(res);
  });

  it('an unsupported method answers 405 (or 404), not 500', async () => {
    const res = await asAdmin('PUT', '/api/admin/realms');
    expect([404, 405]).toContain(res.status);
    expectNoLeak(res);
  });

  it('errors never carry a stack trace or internal detail', async () => {
    const probes = await Promise.all([
      asAdmin('POST', '/api/admin/realms', { rawBody: '{bad' }),
      asAdmin('GET', `/api/admin/realms/${'x'.repeat(150)}`),
      asAdmin('PATCH', '/api/admin/realms/control', { body: { Domains: [null] } }),
      api(CP_HOST, 'POST', '/api/account/bootstrap-admin', { body: { Token: 'x'.repeat(5000), Password: 'y' } }),
      asAdmin('GET', '/api/admin/realms?page=99999999999999999999'),
    ]);
    for (const res of probes) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.contentType).toMatch(/^application\/problem\+json/);
      expectNoLeak(res);
    }
  });
});

describe('CSRF (cookie-authenticated writes)', () => {
  const slugBody = () => {
    const slug = uniqueSlug('csrf');
    return { slug, body: { Slug: slug, DisplayName: 'x', Domains: [realmDomain(slug)] } };
  };

  it('a POST with a foreign Origin answers 403 and changes nothing', async () => {
    const { slug, body } = slugBody();
    const res = await asAdmin('POST', '/api/admin/realms', { body, headers: { origin: 'http://evil.example' } });
    expectProblem(res, 403);
    expectProblem(await asAdmin('GET', `/api/admin/realms/${slug}`), 404);
  });

  it("a POST with another realm's origin (a sibling sub-domain) answers 403", async () => {
    const other = await createRealm();
    const { body } = slugBody();
    const res = await asAdmin('POST', '/api/admin/realms', { body, headers: { origin: `http://${other.host}` } });
    expectProblem(res, 403);
  });

  it('PATCH and DELETE with a foreign Origin answer 403', async () => {
    const { slug } = await createRealm();
    expectProblem(await asAdmin('PATCH', `/api/admin/realms/${slug}`, { body: { DisplayName: 'x' }, headers: { origin: 'http://evil.example' } }), 403);
    expectProblem(await asAdmin('DELETE', `/api/admin/realms/${slug}?hard=true`, { headers: { origin: 'http://evil.example' } }), 403);
    expect((await asAdmin('GET', `/api/admin/realms/${slug}`)).body.DisplayName).toBe(`Realm ${slug}`);
  });

  it('Sec-Fetch-Site: cross-site answers 403; Origin: null answers 403', async () => {
    expectProblem(await asAdmin('POST', '/api/admin/realms', { body: slugBody().body, headers: { 'sec-fetch-site': 'cross-site' } }), 403);
    expectProblem(await asAdmin('POST', '/api/admin/realms', { body: slugBody().body, headers: { origin: 'null' } }), 403);
  });

  it('the same origin is accepted', async () => {
    const { body } = slugBody();
    const res = await asAdmin('POST', '/api/admin/realms', { body, headers: { origin: `http://${hostHeader(CP_HOST)}`, 'sec-fetch-site': 'same-origin' } });
    expect(res.status, res.text).toBe(201);
  });

  it('a login POST from a foreign origin is refused too (login CSRF)', async () => {
    const res = await api(CP_HOST, 'POST', '/api/account/login', {
      body: { UserName: suite().admin.userName, Password: suite().admin.password },
      headers: { origin: 'http://evil.example' },
    });
    expectProblem(res, 403);
    expect(res.setCookies.filter((c) => !/Max-Age=0/i.test(c))).toEqual([]);
  });

  it('safe methods are not affected by Origin', async () => {
    const res = await asAdmin('GET', '/api/admin/realms', { headers: { origin: 'http://evil.example' } });
    expect(res.status).toBe(200);
  });
});
