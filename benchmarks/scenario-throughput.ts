import { measure, type Measurement, type MeasureOptions } from './load';

// The cheap read paths, each a real endpoint: /health (server.ts, no Next), GET /api/app-info (the
// floor of the REST surface: the route wrapper served by server.ts, the realm from the cache, no
// database), GET /api/account/me (session lookup and the permission walk on the realm database),
// and the trivial Next route issue 14 item 3 compares them with: an /api path no endpoint declares,
// answered by Next's catch-all route handler with a constant 404 problem (its rate counts no 2xx,
// so the comparison is by server CPU per request).

export type LoadOptions = MeasureOptions;

export async function throughputRows(
  port: number,
  sessionCookie: string,
  o: LoadOptions,
): Promise<Record<'health' | 'nextRoute' | 'appInfo' | 'me', Measurement>> {
  return {
    health: await measure({ name: 'GET /health (server.ts)', port, path: '/health' }, o),
    nextRoute: await measure({ name: 'GET /api/no-such-path (the trivial Next route: a constant 404)', port, path: '/api/no-such-path' }, o),
    appInfo: await measure({ name: 'GET /api/app-info', port, path: '/api/app-info' }, o),
    me: await measure({ name: 'GET /api/account/me (session cookie)', port, path: '/api/account/me', headers: { cookie: sessionCookie } }, o),
  };
}
