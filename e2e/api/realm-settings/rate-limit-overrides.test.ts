import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, expectProblem, type SignedIn } from '../support/harness';
import { realmSql } from '../support/realm-sql';

// Rate-limit overrides in the realm settings (docs/rate-limits.md): only a known policy, and only
// the dimensions it counts. Anything else is a 400 at the field that names it and saves nothing;
// overrides stored before the rule that it now refuses are dropped on read, not a failed read.

const limit = (points: number) => ({ Points: points, DurationSeconds: 600 });

let host: string;
let slug: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, slug } = await createRealm());
  admin = await bootstrapAdmin(slug);
});

const settings = async () => {
  const res = await api(host, 'GET', '/api/realm-settings', { cookie: admin.jar });
  expect(res.status, res.text).toBe(200);
  return res.body as { RateLimits: Record<string, unknown>; SignIn: { MagicLink: boolean } };
};
const storedDocument = async () => {
  const rows = await realmSql<{ document: string }>(slug, 'SELECT "document" FROM "RealmSettings" WHERE "id" = $1', ['realm']);
  return rows.length ? (JSON.parse(rows[0].document) as Record<string, unknown>) : {};
};

describe('writing overrides', () => {
  it('saves an override of a dimension the policy counts', async () => {
    const res = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin.jar, body: { RateLimits: { login: { Target: limit(7) } } } });
    expect(res.status, res.text).toBe(200);
    expect((await settings()).RateLimits).toEqual({ login: { Target: limit(7) } });
  });

  it('refuses an unknown policy name with 400 at that name, and saves nothing', async () => {
    const before = await storedDocument();
    const res = await api(host, 'PATCH', '/api/realm-settings', {
      cookie: admin.jar,
      body: { SignIn: { MagicLink: true }, RateLimits: { login: { Target: limit(9) }, 'log-in': { Source: limit(5) } } },
    });
    expectProblem(res, 400, 'Validation.Failed');
    expect(Object.keys((res.body as { errors: Record<string, string[]> }).errors)).toEqual(['RateLimits.log-in']);
    expect(await storedDocument()).toEqual(before);
    const after = await settings();
    expect(after.RateLimits).toEqual({ login: { Target: limit(7) } });
    expect(after.SignIn.MagicLink).toBe(false);
  });

  it('refuses a dimension the policy does not count, with PUT as with PATCH', async () => {
    const before = await storedDocument();
    for (const method of ['PATCH', 'PUT'] as const) {
      const res = await api(host, method, '/api/realm-settings', {
        cookie: admin.jar,
        body: { RateLimits: { 'reset-password': { Source: limit(5), Target: limit(5) } } },
      });
      expectProblem(res, 400, 'Validation.Failed');
      expect((res.body as { errors: Record<string, string[]> }).errors).toEqual({
        'RateLimits.reset-password.Target': [expect.stringMatching(/does not count by Target/)],
      });
    }
    expect(await storedDocument()).toEqual(before);
    expect((await settings()).RateLimits).toEqual({ login: { Target: limit(7) } });
  });
});

describe('overrides stored before the rule', () => {
  it('are dropped on read while the valid ones and the other sections stay, and a later patch still works', async () => {
    const stale = {
      SignIn: { MagicLink: true },
      RateLimits: { 'reset-password': { Source: limit(40), Target: limit(5) }, 'gone-policy': { Source: limit(5) }, login: { Client: limit(5) } },
    };
    await realmSql(slug, 'UPDATE "RealmSettings" SET "document" = $1 WHERE "id" = $2', [JSON.stringify(stale), 'realm']);
    // The server caches settings per realm for a minute; a write elsewhere in the document clears it.
    const patched = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin.jar, body: { Branding: { ProductName: 'Stale Co' } } });
    expect(patched.status, patched.text).toBe(200);
    const read = await settings();
    expect(read.SignIn.MagicLink).toBe(true);
    expect(read.RateLimits).toEqual({ 'reset-password': { Source: limit(40) } });
    // The patch stored the document without what the rule refuses.
    expect((await storedDocument()).RateLimits).toEqual({ 'reset-password': { Source: limit(40) } });
  });
});
