import { describe, expect, it } from 'vitest';
import { adminCookie, api, CP_HOST, createRealm, expectProblem, hostHeader, realmDomain, strongPassword, uniqueSlug } from '../support/harness';

// PATCH /api/admin/realms/{slug}: merge-patch of exactly DisplayName, Description, Domains,
// PrimaryDomain, IsActive (spec 4.8, 4.9, 3.1).
const patch = (slug: string, body: unknown) => api(CP_HOST, 'PATCH', `/api/admin/realms/${slug}`, { body, cookie: adminCookie() });
const get = (slug: string) => api(CP_HOST, 'GET', `/api/admin/realms/${slug}`, { cookie: adminCookie() });

describe('patch a realm', () => {
  it('changes DisplayName and Description, leaves omitted fields alone, sets UpdatedAt', async () => {
    const { slug, body } = await createRealm({ DisplayName: 'Before', Description: 'keep me' });
    const res = await patch(slug, { DisplayName: 'After' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.DisplayName).toBe('After');
    expect(res.body.Description).toBe('keep me');
    expect(res.body.Domains).toEqual(body.Realm.Domains);
    expect(res.body.UpdatedAt).toBeTruthy();
    expect((await get(slug)).body.DisplayName).toBe('After');
    const info = await api(hostHeader(realmDomain(slug)), 'GET', '/api/app-info');
    expect(info.body.DisplayName).toBe('After');
  });

  it('clears Description with null and with ""', async () => {
    const { slug } = await createRealm({ Description: 'something' });
    const cleared = await patch(slug, { Description: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.Description).toBeUndefined();
    await patch(slug, { Description: 'again' });
    const blank = await patch(slug, { Description: '' });
    expect(blank.status).toBe(200);
    expect(blank.body.Description ?? null).toBeNull();
  });

  it('accepts property names in any casing', async () => {
    const { slug } = await createRealm();
    const res = await patch(slug, { displayname: 'lower', DESCRIPTION: 'upper' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ DisplayName: 'lower', Description: 'upper' });
  });

  it('replaces Domains entirely: the new host serves the realm, the removed one answers 404', async () => {
    const { slug, domain } = await createRealm();
    const extra = `${uniqueSlug('new')}.localhost`;
    const res = await patch(slug, { Domains: [domain, extra] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.Domains).toEqual([domain, extra]);
    expect((await api(hostHeader(extra), 'GET', '/api/app-info')).body.Realm).toBe(slug);

    const moved = await patch(slug, { Domains: [extra], PrimaryDomain: extra });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.PrimaryDomain).toBe(extra);
    expectProblem(await api(hostHeader(domain), 'GET', '/api/app-info'), 404, null);
    expect((await api(hostHeader(extra), 'GET', '/api/app-info')).status).toBe(200);
  });

  it('PrimaryDomain must be one of the resulting Domains', async () => {
    const { slug, domain } = await createRealm();
    expectProblem(await patch(slug, { PrimaryDomain: `${uniqueSlug('x')}.localhost` }), 400);
    // Removing the primary domain from Domains without naming a new one is refused too.
    const other = `${uniqueSlug('o')}.localhost`;
    expectProblem(await patch(slug, { Domains: [other] }), 400);
    const unchanged = await get(slug);
    expect(unchanged.body.PrimaryDomain).toBe(domain);
    expect(unchanged.body.Domains).toEqual([domain]);
    // A member of the resulting Domains is fine.
    const ok = await patch(slug, { Domains: [domain, other], PrimaryDomain: other });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.PrimaryDomain).toBe(other);
  });

  it('answers 409 for a domain another realm uses', async () => {
    const a = await createRealm();
    const b = await createRealm();
    expectProblem(await patch(b.slug, { Domains: [b.domain, a.domain] }), 409);
    expectProblem(await patch(b.slug, { Domains: [b.domain, CP_HOST] }), 409);
  });

  it.each([
    ['Slug', { Slug: 'renamed' }],
    ['Slug (lower-case)', { slug: 'renamed' }],
    ['IsControlPlane', { IsControlPlane: true }],
  ])('refuses %s', async (_name, body) => {
    const { slug } = await createRealm();
    const res = await patch(slug, body);
    expectProblem(res, 400, 'Validation.Failed');
    expect((await get(slug)).body.Slug).toBe(slug);
    expect((await get(slug)).body.IsControlPlane).toBe(false);
  });

  it.each([{ DisplayName: 42 }, { IsActive: 'yes' }, { Domains: 'a.localhost' }, { DisplayName: '' }])(
    'refuses wrong types %j with errors keyed by field',
    async (body) => {
      const { slug } = await createRealm();
      const res = await patch(slug, body);
      expectProblem(res, 400, 'Validation.Failed');
      expect(Object.keys(res.body.errors)).toContain(Object.keys(body)[0]);
    },
  );

  it('IsActive: null leaves the flag unchanged', async () => {
    const { slug } = await createRealm();
    const res = await patch(slug, { IsActive: null });
    expect(res.status).toBe(200);
    expect(res.body.IsActive).toBe(true);
  });

  it('answers 404 for an unknown slug', async () => {
    expectProblem(await patch(uniqueSlug('none'), { DisplayName: 'x' }), 404);
  });
});

describe('realm activity (spec 3.1)', () => {
  it('deactivating hides every host of the realm (404); reactivating brings it back', async () => {
    const { slug, domain } = await createRealm();
    const off = await patch(slug, { IsActive: false });
    expect(off.status, off.text).toBe(200);
    expect(off.body.IsActive).toBe(false);
    for (const path of ['/api/app-info', '/api/account/me', '/', '/login']) {
      expectProblem(await api(hostHeader(domain), 'GET', path), 404, null);
    }
    expectProblem(await api(hostHeader(domain), 'POST', '/api/account/login', { body: { UserName: 'a', Password: 'b' } }), 404, null);
    // Still listed and readable on the control plane, data kept.
    const listed = await get(slug);
    expect(listed.status).toBe(200);
    expect(listed.body.IsActive).toBe(false);

    const on = await patch(slug, { IsActive: true });
    expect(on.status).toBe(200);
    expect(on.body.IsActive).toBe(true);
    const info = await api(hostHeader(domain), 'GET', '/api/app-info');
    expect(info.status).toBe(200);
    expect(info.body.Realm).toBe(slug);
  });

  it('a deactivated realm keeps its users: its admin signs in again after reactivation', async () => {
    const { slug, domain } = await createRealm();
    const keeperPassword = strongPassword();
    const created = await api(CP_HOST, 'POST', `/api/admin/realms/${slug}/admin-invites`, {
      body: { UserName: 'keeper', Email: 'keeper@example.test' },
      cookie: adminCookie(),
    });
    expect(created.status, created.text).toBe(201);
    const url = new URL(created.body.MagicLinkUrl);
    const redeemed = await api(url.host, 'POST', '/api/account/bootstrap-admin', { body: { Token: url.searchParams.get('token'), Password: keeperPassword } });
    expect(redeemed.status, redeemed.text).toBe(200);

    expect((await patch(slug, { IsActive: false })).status).toBe(200);
    expectProblem(await api(hostHeader(domain), 'POST', '/api/account/login', { body: { UserName: 'keeper', Password: keeperPassword } }), 404, null);
    expect((await patch(slug, { IsActive: true })).status).toBe(200);
    const login = await api(hostHeader(domain), 'POST', '/api/account/login', { body: { UserName: 'keeper', Password: keeperPassword } });
    expect(login.status, login.text).toBe(200);
  });

  it('the control plane cannot be deactivated: Realm.CannotDeactivateControlPlane', async () => {
    const res = await patch('control', { IsActive: false });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expectProblem(res, res.status, 'Realm.CannotDeactivateControlPlane');
    const still = await get('control');
    expect(still.body.IsActive).toBe(true);
    expect((await api(CP_HOST, 'GET', '/api/app-info')).status).toBe(200);
  });
});
