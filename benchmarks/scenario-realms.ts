import { realmAdminSession } from './admin';
import { expectStatus, mapLimit, request } from './http';
import { measure, rotation, type Measurement } from './load';
import type { LoadOptions } from './scenario-throughput';
import { median, progress } from './table';

// Realm creation over the API (spec 4.8: record, database, schema, seed) and the fleet
// measurements: GET /api/app-info on a sample of realm hosts (the realm cache), GET
// /api/account/me with a session in each of a sample of realms (the per-realm database pool).

export const slugOf = (n: number) => `bench-${String(n).padStart(4, '0')}`;
export const hostOf = (slug: string) => `${slug}.bench.test`;

const createBody = (n: number) => ({ Slug: slugOf(n), DisplayName: `Bench realm ${n}`, Domains: [hostOf(slugOf(n))] });

export type CreateTiming = { count: number; medianMs: number; minMs: number; maxMs: number };

/** Creates realms `from..to` one after another, timing each call. */
export async function timeRealmCreates(port: number, cookie: string, from: number, to: number): Promise<CreateTiming> {
  const ms: number[] = [];
  for (let n = from; n <= to; n++) {
    const t = performance.now();
    await expectStatus(201, { port, method: 'POST', path: '/api/admin/realms', cookie, body: createBody(n) });
    ms.push(performance.now() - t);
  }
  return { count: ms.length, medianMs: median(ms), minMs: Math.min(...ms), maxMs: Math.max(...ms) };
}

export type BulkCreate = { numbers: number[]; created: number; failed: number; seconds: number; perSecond: number; failures: Record<string, number> };

/** Creates realms `from..to` with `concurrency` calls in flight. Failures are counted, not thrown. */
export async function createRealms(port: number, cookie: string, from: number, to: number, concurrency: number): Promise<BulkCreate> {
  const numbers = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  const failures: Record<string, number> = {};
  let created = 0;
  const ok: number[] = [];
  const started = performance.now();
  let lastReport = started;
  await mapLimit(numbers, concurrency, async (n) => {
    const r = await request({ port, method: 'POST', path: '/api/admin/realms', cookie, body: createBody(n) }).catch((e: unknown) => ({
      status: 0,
      text: String(e),
    }));
    if (r.status === 201) {
      created++;
      ok.push(n);
    } else {
      const key = `${r.status} ${r.text.slice(0, 120)}`;
      failures[key] = (failures[key] ?? 0) + 1;
    }
    if (performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      progress(`  ${created}/${numbers.length} realms created`);
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const failed = numbers.length - created;
  return { numbers: ok.sort((a, b) => a - b), created, failed, seconds, perSecond: created / seconds, failures };
}

/** Up to `size` distinct items of `items`, spread evenly. */
export function sample<T>(items: readonly T[], size: number): T[] {
  if (items.length <= size) return [...items];
  const step = items.length / size;
  return Array.from({ length: size }, (_, i) => items[Math.floor(i * step)]);
}

export type FleetResult = { appInfo: Measurement; me?: Measurement; sessionRealms: number; hostSample: number };

/** app-info over a host sample, and me over realms whose administrator signed in. */
export async function fleetRows(
  port: number,
  controlCookie: string,
  realmNumbers: number[],
  o: LoadOptions & { hostSample: number; sessionRealms: number; label: string },
): Promise<FleetResult> {
  const hosts = sample(realmNumbers, o.hostSample).map((n) => hostOf(slugOf(n)));
  // Touch every sampled host once so the measurement starts from a warm realm cache.
  await mapLimit(hosts, 8, (host) => expectStatus(200, { port, host, path: '/api/app-info' }));
  const nextHost = rotation(hosts);
  const appInfo = await measure(
    {
      name: `GET /api/app-info, ${hosts.length} realm hosts (${o.label})`,
      port,
      path: '/api/app-info',
      setup: (req) => ({ ...req, headers: { ...req.headers, host: nextHost() } }),
    },
    o,
  );
  if (o.sessionRealms <= 0) return { appInfo, sessionRealms: 0, hostSample: hosts.length };

  const signedIn = sample(realmNumbers, o.sessionRealms);
  progress(`  signing in the administrators of ${signedIn.length} realms`);
  const sessions = await mapLimit(signedIn, 4, async (n) => ({
    host: hostOf(slugOf(n)),
    cookie: await realmAdminSession(port, controlCookie, slugOf(n), hostOf(slugOf(n))),
  }));
  const nextSession = rotation(sessions);
  const me = await measure(
    {
      name: `GET /api/account/me, ${sessions.length} realms (${o.label})`,
      port,
      path: '/api/account/me',
      setup: (req) => {
        const s = nextSession();
        return { ...req, headers: { ...req.headers, host: s.host, cookie: s.cookie } };
      },
    },
    o,
  );
  return { appInfo, me, sessionRealms: sessions.length, hostSample: hosts.length };
}
