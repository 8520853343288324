import { describe, expect, it } from 'vitest';
import { adminCookie, api, CP_HOST, createRealm, expectProblem, hostHeader, postRealm, suite, uniqueSlug } from '../support/harness';
import { globalRealmRows, realmDatabaseExists } from '../support/storage';

// DELETE /api/admin/realms/{slug}[?hard=true] (spec 3.1).
const del = (slug: string, query = '') => api(CP_HOST, 'DELETE', `/api/admin/realms/${slug}${query}`, { cookie: adminCookie() });
const get = (slug: string) => api(CP_HOST, 'GET', `/api/admin/realms/${slug}`, { cookie: adminCookie() });

async function databaseOf(slug: string): Promise<string> {
  const row = (await globalRealmRows(suite().storage)).find((r) => r.slug === slug);
  if (!row) throw new Error(`no global record for ${slug}`);
  return row.databaseName;
}

describe('soft delete', () => {
  it('deactivates: the realm stays listed as inactive, its hosts answer 404, its database is kept', async () => {
    const { slug, domain } = await createRealm();
    const db = await databaseOf(slug);
    const res = await del(slug);
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    const after = await get(slug);
    expect(after.status).toBe(200);
    expect(after.body.IsActive).toBe(false);
    expectProblem(await api(hostHeader(domain), 'GET', '/api/app-info'), 404, null);
    expect(await realmDatabaseExists(suite().storage, db)).toBe(true);
    // ?hard=false is a soft delete too.
    const again = await del(slug, '?hard=false');
    expect(again.status).toBeLessThan(300);
    expect((await get(slug)).status).toBe(200);
  });

  it('can be undone by reactivating', async () => {
    const { slug, domain } = await createRealm();
    expect((await del(slug)).status).toBeLessThan(300);
    const on = await api(CP_HOST, 'PATCH', `/api/admin/realms/${slug}`, { body: { IsActive: true }, cookie: adminCookie() });
    expect(on.status).toBe(200);
    expect((await api(hostHeader(domain), 'GET', '/api/app-info')).status).toBe(200);
  });
});

describe('hard delete', () => {
  it('removes the realm: GET 404, its host 404, its database dropped, slug and domain free again', async () => {
    const { slug, domain, body } = await createRealm({ InitialAdmin: { UserName: 'gone', Email: 'gone@example.test' } });
    const oldId: string = body.Realm.Id;
    const db = await databaseOf(slug);
    expect(await realmDatabaseExists(suite().storage, db)).toBe(true);
    // The realm is in use (its pool is open) when it is dropped.
    expect((await api(hostHeader(domain), 'GET', '/api/app-info')).status).toBe(200);

    const res = await del(slug, '?hard=true');
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    expectProblem(await get(slug), 404);
    expectProblem(await api(hostHeader(domain), 'GET', '/api/app-info'), 404, null);
    expect(await realmDatabaseExists(suite().storage, db)).toBe(false);
    expect((await globalRealmRows(suite().storage)).some((r) => r.slug === slug)).toBe(false);
    const list = await api(CP_HOST, 'GET', `/api/admin/realms?search=${slug}`, { cookie: adminCookie() });
    expect(list.body.totalCount).toBe(0);

    const again = await postRealm({ Slug: slug, Domains: [domain] });
    expect(again.status, again.text).toBe(201);
    expect(again.body.Realm.Id).not.toBe(oldId);
    expect(await databaseOf(slug)).not.toBe(db);
  });

  it('works on an inactive realm', async () => {
    const { slug } = await createRealm();
    const db = await databaseOf(slug);
    expect((await del(slug)).status).toBeLessThan(300);
    expect((await del(slug, '?hard=true')).status).toBeLessThan(300);
    expect(await realmDatabaseExists(suite().storage, db)).toBe(false);
    expectProblem(await get(slug), 404);
  });

  it('answers 404 for an unknown slug', async () => {
    expectProblem(await del(uniqueSlug('none'), '?hard=true'), 404);
    expectProblem(await del(uniqueSlug('none')), 404);
  });

  it('refuses to delete the control plane, soft or hard', async () => {
    for (const q of ['', '?hard=true']) {
      const res = await del('control', q);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.contentType).toMatch(/problem\+json/);
    }
    expect((await get('control')).body.IsActive).toBe(true);
    expect((await api(CP_HOST, 'GET', '/api/app-info')).status).toBe(200);
  });

  it('rejects a malformed hard flag', async () => {
    const { slug } = await createRealm();
    expectProblem(await del(slug, '?hard=maybe'), 400, 'Validation.Failed');
    expect((await get(slug)).body.IsActive).toBe(true);
  });
});
