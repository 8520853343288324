import { beforeAll, describe, expect, it } from 'vitest';
import { adminCookie, api, CP_HOST, createRealm, expectProblem, uniqueSlug } from '../support/harness';

// GET /api/admin/realms and /api/admin/realms/{slug} (spec 4.8, 4.9; CONTRACT.md list rules).
type RealmDto = { Slug: string; DisplayName: string; CreatedAt: string; IsControlPlane: boolean; Domains: string[] };

const list = (query = '') => api(CP_HOST, 'GET', `/api/admin/realms${query}`, { cookie: adminCookie() });

describe('list realms', () => {
  const tag = uniqueSlug('pg');
  const slugs: string[] = [];

  beforeAll(async () => {
    // Three realms sharing a search tag, created in a known order with names that sort the other way.
    for (const [i, name] of ['Charlie', 'Bravo', 'Alpha'].entries()) {
      const { slug } = await createRealm({ Slug: `${tag}-${i}`, DisplayName: `${name} ${tag}` });
      slugs.push(slug);
    }
  });

  it('answers the list wrapper with defaults page=1, pageSize=25', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.page).toBe(1);
    expect(res.body.pageSize).toBe(25);
    expect(typeof res.body.totalCount).toBe('number');
    expect(Array.isArray(res.body.items)).toBe(true);
    expect(res.body.totalCount).toBeGreaterThanOrEqual(4);
    const control = res.body.items.find((r: RealmDto) => r.Slug === 'control');
    expect(control?.IsControlPlane).toBe(true);
    expect(control?.Domains).toEqual(expect.arrayContaining(['localhost', '127.0.0.1']));
  });

  it('searches by slug, display name and domain', async () => {
    const bySlug = await list(`?search=${tag}`);
    expect(bySlug.body.totalCount).toBe(3);
    expect(bySlug.body.items.map((r: RealmDto) => r.Slug).sort()).toEqual([...slugs].sort());
    const byName = await list(`?search=${encodeURIComponent(`Bravo ${tag}`)}`);
    expect(byName.body.items.map((r: RealmDto) => r.Slug)).toEqual([slugs[1]]);
    const byDomain = await list(`?search=${encodeURIComponent(`${slugs[2]}.localhost`)}`);
    expect(byDomain.body.items.map((r: RealmDto) => r.Slug)).toEqual([slugs[2]]);
    const none = await list(`?search=no-such-${tag}`);
    expect(none.status).toBe(200);
    expect(none.body.items).toEqual([]);
    expect(none.body.totalCount).toBe(0);
  });

  it('pages', async () => {
    const p1 = await list(`?search=${tag}&page=1&pageSize=2&sortBy=slug`);
    const p2 = await list(`?search=${tag}&page=2&pageSize=2&sortBy=slug`);
    const p3 = await list(`?search=${tag}&page=3&pageSize=2&sortBy=slug`);
    expect(p1.body).toMatchObject({ page: 1, pageSize: 2, totalCount: 3 });
    expect(p2.body).toMatchObject({ page: 2, pageSize: 2, totalCount: 3 });
    expect(p1.body.items.map((r: RealmDto) => r.Slug)).toEqual([slugs[0], slugs[1]]);
    expect(p2.body.items.map((r: RealmDto) => r.Slug)).toEqual([slugs[2]]);
    expect(p3.body.items).toEqual([]);
  });

  it('sorts by a field, ascending or descending', async () => {
    const byName = await list(`?search=${tag}&sortBy=displayName`);
    expect(byName.body.items.map((r: RealmDto) => r.DisplayName.split(' ')[0])).toEqual(['Alpha', 'Bravo', 'Charlie']);
    const byNameDesc = await list(`?search=${tag}&sortBy=DisplayName&sortDescending=true`);
    expect(byNameDesc.body.items.map((r: RealmDto) => r.DisplayName.split(' ')[0])).toEqual(['Charlie', 'Bravo', 'Alpha']);
    const bySlugDesc = await list(`?search=${tag}&sortBy=slug&sortDescending=true`);
    expect(bySlugDesc.body.items.map((r: RealmDto) => r.Slug)).toEqual([...slugs].reverse());
    const byCreated = await list(`?search=${tag}&sortBy=createdAt`);
    const times = byCreated.body.items.map((r: RealmDto) => new Date(r.CreatedAt).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('answers a pageSize above 200 as 200', async () => {
    const res = await list('?pageSize=1000');
    expect(res.status).toBe(200);
    expect(res.body.pageSize).toBe(200);
    expect(res.body.items.length).toBe(Math.min(200, res.body.totalCount));
  });

  it.each(['?page=0', '?page=-1', '?pageSize=0', '?page=abc', '?pageSize=x'])('rejects %s with 400', async (q) => {
    expectProblem(await list(q), 400, 'Validation.Failed');
  });

  it('needs a session', async () => {
    expectProblem(await api(CP_HOST, 'GET', '/api/admin/realms'), 401);
  });
});

describe('get a realm', () => {
  it('answers the realm by slug', async () => {
    const created = await createRealm({ Description: 'described' });
    const res = await api(CP_HOST, 'GET', `/api/admin/realms/${created.slug}`, { cookie: adminCookie() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body.Realm);
  });

  it('answers 404 for an unknown slug', async () => {
    expectProblem(await api(CP_HOST, 'GET', `/api/admin/realms/${uniqueSlug('none')}`, { cookie: adminCookie() }), 404);
  });

  it('answers the control plane itself', async () => {
    const res = await api(CP_HOST, 'GET', '/api/admin/realms/control', { cookie: adminCookie() });
    expect(res.status).toBe(200);
    expect(res.body.IsControlPlane).toBe(true);
    expect(res.body.PrimaryDomain).toBe('localhost');
  });
});
