import { beforeAll, describe, expect, it } from 'vitest';
import { adminCookie, api, bootstrapAdmin, CP_HOST, createRealm, eventually, expectProblem, realmWithAdmin, type SignedIn } from '../support/harness';

// GET /api/admin/auth-log (a realm's security log) and GET /api/admin/platform-audit (control plane
// only), filterable by category, eventType and limit (spec 4.7 "Logs", 6).
type Entry = { Id: string; CreatedAt: string; Category: string; EventType: string; Success?: boolean; UserName?: string; RealmSlug?: string };

describe('auth-log', () => {
  let host: string;
  let admin: SignedIn;

  beforeAll(async () => {
    ({ host, admin } = await realmWithAdmin());
    // A failed and a successful sign-in.
    await api(host, 'POST', '/api/account/login', { body: { UserName: admin.userName, Password: 'wrong-password' } });
    await api(host, 'POST', '/api/account/login', { body: { UserName: admin.userName, Password: admin.password } });
  });

  const log = (query = '') => api(host, 'GET', `/api/admin/auth-log${query}`, { cookie: admin.jar });

  it("records the realm's sign-in events, newest first", async () => {
    const entries = await eventually(async () => {
      const res = await log();
      expect(res.status, res.text).toBe(200);
      const items: Entry[] = Array.isArray(res.body) ? res.body : res.body.items;
      expect(items.length).toBeGreaterThanOrEqual(3);
      return items;
    });
    const times = entries.map((e) => new Date(e.CreatedAt).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const failed = entries.find((e) => e.Success === false);
    expect(failed, JSON.stringify(entries)).toBeDefined();
    expect(failed?.UserName).toBe(admin.userName);
    expect(JSON.stringify(entries)).not.toMatch(/wrong-password|passwordHash/);
  });

  it("writes a sign-in's entry with its session: there when the answer comes, exactly once", async () => {
    const succeeded = async () => {
      const res = await log('?eventType=auth.login-succeeded&limit=1000');
      expect(res.status, res.text).toBe(200);
      return res.body as (Entry & { Detail?: unknown })[];
    };
    const before = await succeeded();
    const signIn = await api(host, 'POST', '/api/account/login', { body: { UserName: admin.userName, Password: admin.password } });
    expect(signIn.status, signIn.text).toBe(200);
    // No waiting: the entry committed with the session, before the answer was sent; and only once
    // (the log subscriber leaves an event its publisher already logged).
    const after = await succeeded();
    expect(after).toHaveLength(before.length + 1);
    const added = after.filter((e) => !before.some((b) => b.Id === e.Id));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ Category: 'Authentication', Success: true, UserName: admin.userName });
    expect(JSON.stringify(added[0].Detail)).toContain('pwd');
  });

  it('filters by eventType and category, and honours limit', async () => {
    const all: Entry[] = (await log()).body;
    const type = all.find((e) => e.Success === false)!.EventType;
    const byType: Entry[] = (await log(`?eventType=${encodeURIComponent(type)}`)).body;
    expect(byType.length).toBeGreaterThan(0);
    expect(byType.every((e) => e.EventType === type)).toBe(true);
    expect(byType.length).toBeLessThan(all.length);

    const category = all[0].Category;
    const byCategory: Entry[] = (await log(`?category=${encodeURIComponent(category)}`)).body;
    expect(byCategory.length).toBeGreaterThan(0);
    expect(byCategory.every((e) => e.Category === category)).toBe(true);

    const none = await log('?eventType=no.such-event');
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);

    const one: Entry[] = (await log('?limit=1')).body;
    expect(one).toHaveLength(1);
    expect(one[0].Id).toBe(all[0].Id);
  });

  it('rejects a bad limit with 400', async () => {
    expectProblem(await log('?limit=0'), 400, 'Validation.Failed');
    expectProblem(await log('?limit=abc'), 400, 'Validation.Failed');
  });

  it("does not show another realm's events", async () => {
    const other = await createRealm();
    const otherAdmin = await bootstrapAdmin(other.slug);
    const res = await api(other.host, 'GET', '/api/admin/auth-log', { cookie: otherAdmin.jar });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain(admin.userName);
  });

  it('needs a session (401)', async () => {
    expectProblem(await api(host, 'GET', '/api/admin/auth-log'), 401);
  });
});

describe('platform-audit', () => {
  let slug: string;

  beforeAll(async () => {
    ({ slug } = await createRealm());
    await api(CP_HOST, 'PATCH', `/api/admin/realms/${slug}`, { body: { DisplayName: 'audited' }, cookie: adminCookie() });
  });

  const audit = (query = '') => api(CP_HOST, 'GET', `/api/admin/platform-audit${query}`, { cookie: adminCookie() });

  it('records realm changes on the control plane', async () => {
    const entries = await eventually(async () => {
      const res = await audit();
      expect(res.status, res.text).toBe(200);
      const items: Entry[] = res.body;
      expect(items.filter((e) => e.RealmSlug === slug).length).toBeGreaterThanOrEqual(2);
      return items;
    });
    const mine = entries.filter((e) => e.RealmSlug === slug);
    expect(new Set(mine.map((e) => e.EventType)).size).toBeGreaterThanOrEqual(2);
    const times = entries.map((e) => new Date(e.CreatedAt).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // PII-free: no user names or e-mail addresses of the actor.
    expect(JSON.stringify(entries)).not.toContain('e2e-admin@example.test');
  });

  it('filters by eventType and category, and honours limit', async () => {
    const all: Entry[] = (await audit()).body;
    const type = all.find((e) => e.RealmSlug === slug)!.EventType;
    const byType: Entry[] = (await audit(`?eventType=${encodeURIComponent(type)}`)).body;
    expect(byType.length).toBeGreaterThan(0);
    expect(byType.every((e) => e.EventType === type)).toBe(true);
    const category = all[0].Category;
    const byCategory: Entry[] = (await audit(`?category=${encodeURIComponent(category)}`)).body;
    expect(byCategory.every((e) => e.Category === category)).toBe(true);
    expect((await audit('?category=NoSuchCategory')).body).toEqual([]);
    expect((await audit('?limit=2')).body).toHaveLength(2);
  });

  it("is hidden (404) on any other host, even for that realm's administrator", async () => {
    const realm = await createRealm();
    const admin = await bootstrapAdmin(realm.slug);
    expectProblem(await api(realm.host, 'GET', '/api/admin/platform-audit', { cookie: admin.jar }), 404, null);
  });

  it('needs a session (401)', async () => {
    expectProblem(await api(CP_HOST, 'GET', '/api/admin/platform-audit'), 401);
  });
});
