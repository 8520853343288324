import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { grant, makeUser, MAIN_APP_ID, signedIn } from '../users/fixtures';
import { api, bootstrapAdmin, createRealm, expectProblem, type CookieJar, type SignedIn } from '../support/harness';
import { realmSql } from '../support/realm-sql';

// Invite codes (spec 4.7 "Invite codes", 2.5): minting shows the plaintext once and stores only its
// SHA-256; lists never show it; revocation; statuses; the realm-wide overview; permissions.
const CODE = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){6}$/;

describe('invite codes', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;
  let otherApp: string;
  const base = `/api/app/${MAIN_APP_ID}/invite-codes`;

  beforeAll(async () => {
    ({ host, slug } = await createRealm());
    admin = await bootstrapAdmin(slug);
    // A second App (App management has no create endpoint yet): written directly.
    otherApp = randomUUID();
    await realmSql(slug, 'INSERT INTO "App" ("id", "slug", "displayName", "createdAt") SELECT $1, $2, $3, "createdAt" FROM "App" WHERE "id" = $4', [
      otherApp,
      `shop-${randomBytes(3).toString('hex')}`,
      'Shop',
      MAIN_APP_ID,
    ]);
  });

  it('mint one: 201 with the code once, in groups of four; only its SHA-256 is stored', async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const res = await api(host, 'POST', base, { cookie: admin.jar, body: { Label: 'Spring cohort', ExpiresAt: expiresAt } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ AppId: MAIN_APP_ID, Label: 'Spring cohort', Status: 'Active', CreatedBy: admin.userId, ExpiresAt: expiresAt });
    expect(res.body.Code).toMatch(CODE);
    expect(res.body.Id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.text).not.toMatch(/hash/i);
    const [row] = await realmSql<{ codeHash: string }>(slug, 'SELECT "codeHash" FROM "InviteCode" WHERE "id" = $1', [res.body.Id]);
    const canonical = res.body.Code.replace(/-/g, '');
    expect(row.codeHash).toBe(createHash('sha256').update(`invite-code:${canonical}`).digest('hex'));
    expect(JSON.stringify(await realmSql(slug, 'SELECT * FROM "InviteCode"'))).not.toContain(canonical);
  });

  it('mint many: Count answers `Codes`, all different', async () => {
    const res = await api(host, 'POST', base, { cookie: admin.jar, body: { Count: 5, Label: 'batch' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.Codes).toHaveLength(5);
    expect(new Set(res.body.Codes.map((c: { Code: string }) => c.Code)).size).toBe(5);
    for (const c of res.body.Codes) expect(c).toMatchObject({ Label: 'batch', Status: 'Active', Code: expect.stringMatching(CODE) });
  });

  it('the App may be named by its slug; an unknown App is 404 App.NotFound', async () => {
    expect((await api(host, 'POST', '/api/app/gatehouse/invite-codes', { cookie: admin.jar, body: {} })).body.AppId).toBe(MAIN_APP_ID);
    expectProblem(await api(host, 'POST', '/api/app/no-such-app/invite-codes', { cookie: admin.jar, body: {} }), 404, 'App.NotFound');
    expectProblem(await api(host, 'GET', '/api/app/no-such-app/invite-codes', { cookie: admin.jar }), 404, 'App.NotFound');
  });

  it.each([
    { Count: 0 },
    { Count: 101 },
    { Count: 1.5 },
    { ExpiresAt: 'tomorrow' },
    { ExpiresAt: new Date(Date.now() - 1000).toISOString() },
    { Label: 'x'.repeat(201) },
  ])('refuses %j with 400 Validation.Failed', async (body) => {
    expectProblem(await api(host, 'POST', base, { cookie: admin.jar, body }), 400, 'Validation.Failed');
  });

  it('the list is paged, newest first, and never carries a code', async () => {
    const res = await api(host, 'GET', `${base}?pageSize=3`, { cookie: admin.jar });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ page: 1, pageSize: 3 });
    expect(res.body.totalCount).toBeGreaterThanOrEqual(7);
    expect(res.body.items).toHaveLength(3);
    expect(res.text).not.toMatch(/"Code"|hash/i);
    const stamps = res.body.items.map((i: { CreatedAt: string }) => i.CreatedAt);
    expect([...stamps].sort().reverse()).toEqual(stamps);
    const page2 = await api(host, 'GET', `${base}?pageSize=3&page=2`, { cookie: admin.jar });
    expect(page2.body.items[0].Id).not.toBe(res.body.items[0].Id);
  });

  it('revoke: 204, status Revoked, idempotent; unknown or another App’s code is 404 InviteCode.NotFound', async () => {
    const { body: code } = await api(host, 'POST', base, { cookie: admin.jar, body: { Label: 'to revoke' } });
    expect((await api(host, 'DELETE', `${base}/${code.Id}`, { cookie: admin.jar })).status).toBe(204);
    expect((await api(host, 'DELETE', `${base}/${code.Id}`, { cookie: admin.jar })).status).toBe(204);
    const revoked = await api(host, 'GET', `${base}?status=Revoked`, { cookie: admin.jar });
    const item = revoked.body.items.find((i: { Id: string }) => i.Id === code.Id);
    expect(item.Status).toBe('Revoked');
    expect(typeof item.RevokedAt).toBe('string');
    expectProblem(await api(host, 'DELETE', `${base}/${randomUUID()}`, { cookie: admin.jar }), 404, 'InviteCode.NotFound');
    expectProblem(await api(host, 'DELETE', `/api/app/${otherApp}/invite-codes/${code.Id}`, { cookie: admin.jar }), 404, 'InviteCode.NotFound');
  });

  it('an expired code shows as Expired', async () => {
    const { body: code } = await api(host, 'POST', base, { cookie: admin.jar, body: { ExpiresAt: new Date(Date.now() + 60_000).toISOString() } });
    await realmSql(slug, 'UPDATE "InviteCode" SET "expiresAt" = "createdAt" WHERE "id" = $1', [code.Id]);
    const expired = await api(host, 'GET', `${base}?status=Expired`, { cookie: admin.jar });
    expect(expired.body.items.map((i: { Id: string }) => i.Id)).toEqual([code.Id]);
    const active = await api(host, 'GET', `${base}?status=Active&pageSize=200`, { cookie: admin.jar });
    expect(active.body.items.map((i: { Id: string }) => i.Id)).not.toContain(code.Id);
    expect(active.body.items.every((i: { Status: string }) => i.Status === 'Active')).toBe(true);
    expectProblem(await api(host, 'GET', `${base}?status=Nope`, { cookie: admin.jar }), 400, 'Validation.Failed');
  });

  it('each App sees only its own codes; the realm-wide overview sees all, filterable by appId and status', async () => {
    const { body: shopCode } = await api(host, 'POST', `/api/app/${otherApp}/invite-codes`, { cookie: admin.jar, body: { Label: 'shop' } });
    expect(shopCode.AppId).toBe(otherApp);
    const mainList = await api(host, 'GET', `${base}?pageSize=200`, { cookie: admin.jar });
    expect(mainList.body.items.map((i: { Id: string }) => i.Id)).not.toContain(shopCode.Id);
    const shopList = await api(host, 'GET', `/api/app/${otherApp}/invite-codes`, { cookie: admin.jar });
    expect(shopList.body.items.map((i: { Id: string }) => i.Id)).toEqual([shopCode.Id]);

    const all = await api(host, 'GET', '/api/admin/invite-codes?pageSize=200', { cookie: admin.jar });
    expect(all.status, all.text).toBe(200);
    expect(all.body.totalCount).toBe(mainList.body.totalCount + 1);
    expect(all.text).not.toMatch(/"Code"|hash/i);
    const byApp = await api(host, 'GET', `/api/admin/invite-codes?appId=${otherApp}`, { cookie: admin.jar });
    expect(byApp.body.items.map((i: { Id: string }) => i.Id)).toEqual([shopCode.Id]);
    const revoked = await api(host, 'GET', '/api/admin/invite-codes?status=Revoked', { cookie: admin.jar });
    expect(revoked.body.items.length).toBeGreaterThan(0);
    expect(revoked.body.items.every((i: { Status: string }) => i.Status === 'Revoked')).toBe(true);
    expectProblem(await api(host, 'GET', '/api/admin/invite-codes?appId=nope', { cookie: admin.jar }), 404, 'App.NotFound');
  });

  describe('permissions', () => {
    let plain: CookieJar;
    let reader: CookieJar;
    let writer: CookieJar;

    beforeAll(async () => {
      plain = await signedIn(host, await makeUser(host, admin.jar));
      const r = await makeUser(host, admin.jar);
      await grant(host, admin.jar, ['invite-code:read'], r.id);
      reader = await signedIn(host, r);
      const w = await makeUser(host, admin.jar);
      await grant(host, admin.jar, ['invite-code:write'], w.id);
      writer = await signedIn(host, w);
    });

    it('anonymous callers get 401', async () => {
      expectProblem(await api(host, 'POST', base, { body: {} }), 401);
      expectProblem(await api(host, 'GET', base), 401);
      expectProblem(await api(host, 'DELETE', `${base}/${randomUUID()}`), 401);
      expectProblem(await api(host, 'GET', '/api/admin/invite-codes'), 401);
    });

    it('a user without invite-code permissions gets 403 everywhere', async () => {
      expectProblem(await api(host, 'POST', base, { cookie: plain, body: {} }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'GET', base, { cookie: plain }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'DELETE', `${base}/${randomUUID()}`, { cookie: plain }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'GET', '/api/admin/invite-codes', { cookie: plain }), 403, 'Auth.Forbidden');
    });

    it('invite-code:read lists but cannot mint or revoke', async () => {
      expect((await api(host, 'GET', base, { cookie: reader })).status).toBe(200);
      expect((await api(host, 'GET', '/api/admin/invite-codes', { cookie: reader })).status).toBe(200);
      expectProblem(await api(host, 'POST', base, { cookie: reader, body: {} }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'DELETE', `${base}/${randomUUID()}`, { cookie: reader }), 403, 'Auth.Forbidden');
    });

    it('invite-code:write mints and revokes', async () => {
      const res = await api(host, 'POST', base, { cookie: writer, body: { Label: 'by writer' } });
      expect(res.status, res.text).toBe(201);
      expect((await api(host, 'DELETE', `${base}/${res.body.Id}`, { cookie: writer })).status).toBe(204);
    });
  });
});
