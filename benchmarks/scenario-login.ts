import { controlPlaneAdmin, PASSWORD } from './admin';
import { expectStatus } from './http';
import { measure, rotation, type Measurement } from './load';
import type { LoadOptions } from './scenario-throughput';

// POST /api/account/login with correct passwords. The login policy (lib/rate-limit/policies.ts)
// allows 30 attempts a minute per source address and 10 per 5 minutes per target name, so a
// single-address client would measure 429s. Instead each connection comes from a fresh loopback
// address and reconnects every SOURCE_EVERY requests (below the per-source ceiling), and the
// requests rotate over several accounts (a successful login clears its target counter). The
// per-App ceiling (300 a minute: every request here comes through the built-in App) is raised in the
// control plane's settings, as an operator expecting such a rate would. Any non-2xx answer is still
// counted and reported.

const SOURCE_EVERY = 20;

export async function makeLoginUsers(env: NodeJS.ProcessEnv, port: number, count: number, adminCookie: string): Promise<string[]> {
  await expectStatus(200, {
    port,
    method: 'PATCH',
    path: '/api/realm-settings',
    cookie: adminCookie,
    body: { RateLimits: { login: { App: { Points: 1_000_000, DurationSeconds: 60 } } } },
  });
  const users: string[] = [];
  for (let i = 1; i <= count; i++) {
    const name = `bench-login-${i}`;
    await controlPlaneAdmin(env, port, name); // also proves the password works
    users.push(name);
  }
  return users;
}

/**
 * The password-login row. With the server's rate limits on, connections come from rotating source
 * addresses (above); on a server started with GATEHOUSE_RATE_LIMIT_SCALE=0 they need not, and the row
 * measures the login alone (issue 14's ratio to the raw argon2id rate is taken on that one).
 */
export async function loginRow(port: number, users: string[], o: LoadOptions, limits: 'on' | 'off' = 'on', round?: number): Promise<Measurement> {
  const nextUser = rotation(users);
  return measure(
    {
      name: `POST /api/account/login (password, rate limits ${limits}${round ? `, round ${round}` : ''})`,
      port,
      path: '/api/account/login',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ UserName: users[0], Password: PASSWORD }),
      setup: (req) => ({ ...req, body: JSON.stringify({ UserName: nextUser(), Password: PASSWORD }) }),
      ...(limits === 'on' ? { rotateSourceEvery: SOURCE_EVERY } : {}),
    },
    o,
  );
}
