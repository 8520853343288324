import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCookie, api, CP_HOST, eventually, expectProblem, realmWithAdmin, signIn, strongPassword, type CookieJar } from '../support/harness';

// How long the logs keep their entries (spec 4.7 "Logs", 4.9): the platform audit's retention is a
// singleton on the control plane (GET/PUT /api/admin/platform-audit/retention, PUT a full replace),
// a realm's security-log retention is its realm setting Retention.SecurityLogDays. The purge job
// that applies them is tested in lib/startup/purge/purge.test.ts. Exclusive (e2e/api/logs/**):
// the platform setting is shared by every file.
const RETENTION = '/api/admin/platform-audit/retention';
const CONTROL_PLANE_APP = '00000000-0000-4000-8000-000000000002';

/** A control-plane user holding `permissions` of the control-plane App, signed in. */
async function controlPlaneUser(permissions: string[]): Promise<CookieJar> {
  const tag = randomBytes(4).toString('hex');
  const password = strongPassword();
  const user = await api(CP_HOST, 'POST', '/api/user', {
    cookie: adminCookie(),
    body: { UserName: `ret-${tag}`, Email: `ret-${tag}@example.test`, Password: password },
  });
  expect(user.status, user.text).toBe(201);
  if (permissions.length) {
    const role = await api(CP_HOST, 'POST', '/api/role', {
      cookie: adminCookie(),
      body: { Name: `ret-${tag}`, AppId: CONTROL_PLANE_APP, Permissions: permissions },
    });
    expect(role.status, role.text).toBe(201);
    const group = await api(CP_HOST, 'POST', '/api/group', {
      cookie: adminCookie(),
      body: { Name: `ret-${tag}`, BoundTo: ['control-plane'], RoleIds: [role.body.Id] },
    });
    expect(group.status, group.text).toBe(201);
    expect((await api(CP_HOST, 'POST', `/api/user/${user.body.Id}/groups`, { cookie: adminCookie(), body: { GroupId: group.body.Id } })).status).toBe(201);
  }
  const { res, jar } = await signIn(CP_HOST, `ret-${tag}`, password);
  expect(res.status, res.text).toBe(200);
  return jar;
}

describe('the platform audit retention', () => {
  const get = (cookie: CookieJar | string = adminCookie(), host = CP_HOST) => api(host, 'GET', RETENTION, { cookie });
  const put = (body: unknown, cookie: CookieJar | string = adminCookie(), host = CP_HOST) => api(host, 'PUT', RETENTION, { cookie, body });

  beforeAll(async () => {
    expect((await put({})).status).toBe(200);
  });
  afterAll(async () => {
    await put({}); // back to the default for the files after this one
  });

  it('defaults to 365 days; PUT replaces it and GET reads it back; an empty document is the default again', async () => {
    expect((await get()).body).toEqual({ PlatformAuditDays: 365 });
    const set = await put({ platformAuditDays: 30 });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ PlatformAuditDays: 30 });
    expect((await get()).body).toEqual({ PlatformAuditDays: 30 });
    expect((await put({ PlatformAuditDays: null })).body).toEqual({ PlatformAuditDays: 365 });
    await put({ PlatformAuditDays: 90 });
    expect((await put({})).body).toEqual({ PlatformAuditDays: 365 });
    expect((await get()).body).toEqual({ PlatformAuditDays: 365 });
  });

  it('refuses what is not 1 to 3650 whole days with a friendly message, and keeps the value', async () => {
    await put({ PlatformAuditDays: 60 });
    for (const [value, message] of [
      [0, 'Use at least 1.'],
      [3651, 'Use at most 3650.'],
      [1.5, 'Enter a whole number.'],
      ['thirty', 'Enter a whole number.'],
    ] as const) {
      const res = await put({ PlatformAuditDays: value });
      expectProblem(res, 400, 'Validation.Failed');
      expect(res.body.errors.PlatformAuditDays, res.text).toEqual([message]);
    }
    expect((await get()).body).toEqual({ PlatformAuditDays: 60 });
  });

  it('records the change in the platform audit', async () => {
    await put({ PlatformAuditDays: 45 });
    await eventually(async () => {
      const res = await api(CP_HOST, 'GET', '/api/admin/platform-audit?category=Platform&eventType=platform-settings.updated&limit=5', {
        cookie: adminCookie(),
      });
      expect(res.status, res.text).toBe(200);
      expect(
        res.body.some((e: { Detail?: { platformAuditDays?: number } }) => e.Detail?.platformAuditDays === 45),
        res.text,
      ).toBe(true);
    });
  });

  it('is read with platform-audit:read and changed only by platform administrators (realm:admin)', async () => {
    expectProblem(await api(CP_HOST, 'GET', RETENTION), 401);
    expectProblem(await api(CP_HOST, 'PUT', RETENTION, { body: { PlatformAuditDays: 10 } }), 401);
    const plain = await controlPlaneUser([]);
    expectProblem(await get(plain), 403, 'Auth.Forbidden');
    const auditor = await controlPlaneUser(['control-plane:platform-audit:read']);
    expect((await get(auditor)).status).toBe(200);
    const before = (await get()).body;
    expectProblem(await put({ PlatformAuditDays: 10 }, auditor), 403, 'Auth.Forbidden');
    const realmWriter = await controlPlaneUser(['realm:write', 'control-plane:platform-audit:read']);
    expectProblem(await put({ PlatformAuditDays: 10 }, realmWriter), 403, 'Auth.Forbidden');
    expect((await get()).body).toEqual(before);
  });

  it("is hidden (bare 404) on any other host, even for that realm's administrator", async () => {
    const { host, admin } = await realmWithAdmin();
    expectProblem(await get(admin.jar, host), 404, null);
    expectProblem(await put({ PlatformAuditDays: 10 }, admin.jar, host), 404, null);
  });
});

describe("a realm's security-log retention", () => {
  it('is the realm setting Retention.SecurityLogDays: 365 by default, 1 to 3650 days', async () => {
    const { host, admin } = await realmWithAdmin();
    expect((await api(host, 'GET', '/api/realm-settings', { cookie: admin.jar })).body.Retention).toEqual({ SecurityLogDays: 365 });
    const set = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin.jar, body: { Retention: { SecurityLogDays: 30 } } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.Retention).toEqual({ SecurityLogDays: 30 });
    const bad = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin.jar, body: { Retention: { SecurityLogDays: 0 } } });
    expectProblem(bad, 400, 'Validation.Failed');
    expect((await api(host, 'GET', '/api/realm-settings', { cookie: admin.jar })).body.Retention).toEqual({ SecurityLogDays: 30 });
  });
});
