import { measure, type Measurement, type MeasureOptions } from './load';

// The cheap read paths, each a real endpoint: /health (server.ts, no Next), GET /api/app-info (the
// floor of the REST surface: a Next route with the route wrapper, the realm from the cache, no
// database), and GET /api/account/me (session lookup and the permission walk on the realm database).

export type LoadOptions = MeasureOptions;

export async function throughputRows(port: number, sessionCookie: string, o: LoadOptions): Promise<Record<'health' | 'appInfo' | 'me', Measurement>> {
  return {
    health: await measure({ name: 'GET /health (server.ts)', port, path: '/health' }, o),
    appInfo: await measure({ name: 'GET /api/app-info', port, path: '/api/app-info' }, o),
    me: await measure({ name: 'GET /api/account/me (session cookie)', port, path: '/api/account/me', headers: { cookie: sessionCookie } }, o),
  };
}
