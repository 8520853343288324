import { measure, type Measurement, type MeasureOptions } from './load';

// Throughput floor and the cheap read paths: /health (server.ts, no Next), the trivial Next route,
// GET /api/app-info (route wrapper, realm from the cache, no database), and GET /api/account/me
// (session lookup and the permission walk on the realm database).

export type LoadOptions = MeasureOptions;

export async function throughputRows(port: number, sessionCookie: string, o: LoadOptions): Promise<Record<'health' | 'ping' | 'appInfo' | 'me', Measurement>> {
  return {
    health: await measure({ name: 'GET /health (server.ts)', port, path: '/health' }, o),
    ping: await measure({ name: 'GET /api/ping (trivial Next route)', port, path: '/api/ping' }, o),
    appInfo: await measure({ name: 'GET /api/app-info', port, path: '/api/app-info' }, o),
    me: await measure({ name: 'GET /api/account/me (session cookie)', port, path: '/api/account/me', headers: { cookie: sessionCookie } }, o),
  };
}
