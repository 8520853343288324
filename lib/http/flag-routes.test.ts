import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contextual, defineFlagClass, evaluateProperty, plain } from '../domain/flags/registry';
import type { RealmRecord } from '../realm/realm-record';
import { evaluationFailedResponse, mapEntitlements, mapFlags, valueResponse } from './flag-routes';

// The route group's shapes without a server: the declarations it makes, the answers it writes, and
// the 500 of spec 7 for a resolver that throws (a test-only class, so nothing of it ships).
const Test = defineFlagClass('TestOnly', {
  Plain: plain(z.number(), () => 3),
  Ctx: contextual(z.string(), z.object({ Name: z.string() }), (_c, i) => i.Name),
  Throws: plain(z.boolean(), () => {
    throw new Error('secret internal: postgres://user:pw@db');
  }),
});

describe('flag route group', () => {
  it('declares GET for plain and POST for contextual properties under the prefix', () => {
    const group = mapFlags([Test], { rateLimit: 'flag-evaluation', prefix: '/features' });
    expect(group.endpoints.map((e) => `${e.endpoint.method} ${e.endpoint.path}`)).toEqual([
      'GET /features/TestOnly/Plain',
      'POST /features/TestOnly/Ctx',
      'GET /features/TestOnly/Throws',
    ]);
    expect(group.endpoints[0].endpoint).toMatchObject({ auth: 'user', bearer: 'management', rateLimit: 'flag-evaluation' });
    expect(mapEntitlements([Test]).prefix).toBe('/entitlements');
    expect(mapFlags([Test], { bearer: false }).endpoints[0].endpoint.bearer).toBeUndefined();
    expect(() => mapFlags([Test, Test])).toThrow(/twice/);
    expect(() => mapFlags([Test], { prefix: 'no-slash' })).toThrow();
  });

  it('answers { value } in lower case', async () => {
    const res = valueResponse(null);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ value: null });
  });

  it('answers a throwing resolver with exactly { detail, title, statusCode: 500 } and no internals', async () => {
    const outcome = await evaluateProperty({ realm: { id: 'r' } as RealmRecord }, Test.Throws, undefined);
    expect(outcome.ok).toBe(false);
    const res = evaluationFailedResponse(outcome.ok ? '' : outcome.detail);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ detail: 'The value could not be evaluated.', title: 'Flag evaluation failed', statusCode: 500 });
    expect(text).not.toContain('postgres');
  });

  it('answers the CORS preflight for an allowed origin only', async () => {
    const group = mapFlags([Test], { cors: { origins: ['https://app.example.test'] } });
    const ok = await group.OPTIONS(new Request('http://x/flags/TestOnly/Plain', { method: 'OPTIONS', headers: { origin: 'https://app.example.test' } }));
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.test');
    expect(ok.headers.get('access-control-allow-headers')).toContain('authorization');
    const other = await group.OPTIONS(new Request('http://x/flags/TestOnly/Plain', { method: 'OPTIONS', headers: { origin: 'https://evil.example.test' } }));
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
