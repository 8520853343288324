import { SoftAuthenticator } from '../e2e/api/support/soft-authenticator';
import { makeUsers, passwordSession, shares, type BenchUser } from './bench-users';
import { cookiesFrom, measureFlows, type FlowMeasurement } from './flows';
import { expectStatus, mapLimit } from './http';

// Passkey sign-in, assertion verification only: every account registers one passkey over HTTP
// with the e2e suite's software authenticator (P-256, 'none' attestation), then each flow is
// POST /api/account/passkey/login-options { UserName } and POST /api/account/passkey/login with a
// fresh assertion. The authenticator's signature counter rises per use, so one account is never
// used by two workers at once (each worker has its own share).

type Holder = BenchUser & { auth: SoftAuthenticator };

export async function passkeyUsers(port: number, adminCookie: string, count: number): Promise<Holder[]> {
  const users = await makeUsers(port, adminCookie, 'bench-passkey', count);
  return mapLimit(users, 4, async (u) => {
    const cookie = await passwordSession(port, u.userName);
    const options = await expectStatus(200, { port, method: 'POST', path: '/api/account/passkey/register-options', cookie, body: {} });
    const auth = new SoftAuthenticator(port);
    await expectStatus(200, { port, method: 'POST', path: '/api/account/passkey/register', cookie, body: auth.create(options.json()) });
    return { ...u, auth };
  });
}

export async function passkeyLoginRow(
  port: number,
  holders: Holder[],
  o: { workers: number; duration: number; cpuMs: () => number },
): Promise<FlowMeasurement> {
  const mine = shares(holders, o.workers);
  const cursor = mine.map(() => 0);
  return measureFlows(
    {
      name: `passkey login-options + login (${holders.length} accounts)`,
      workers: o.workers,
      flow: async (w, send) => {
        const h = mine[w][cursor[w]++ % mine[w].length];
        const options = await send('login-options', { port, method: 'POST', path: '/api/account/passkey/login-options', body: { UserName: h.userName } });
        await send('login', { port, method: 'POST', path: '/api/account/passkey/login', cookie: cookiesFrom(options), body: h.auth.get(options.json()) });
      },
    },
    { duration: o.duration, cpuMs: o.cpuMs },
  );
}
