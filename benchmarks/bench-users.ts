import { PASSWORD } from './admin';
import { cookiesFrom } from './flows';
import { expectStatus, mapLimit } from './http';

// Accounts for the sign-in scenarios, made over the API by the control-plane administrator
// (POST /api/user), each signed in once with its password to do its own enrolment.

export type BenchUser = { userName: string; email: string; id: string };

export async function makeUsers(port: number, adminCookie: string, prefix: string, count: number): Promise<BenchUser[]> {
  return mapLimit(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) => {
      const userName = `${prefix}-${i}`;
      const email = `${userName}@bench.test`;
      const r = await expectStatus(201, {
        port,
        method: 'POST',
        path: '/api/user',
        cookie: adminCookie,
        body: { UserName: userName, Email: email, Password: PASSWORD },
      });
      return { userName, email, id: r.json<{ Id: string }>().Id };
    },
  );
}

/** A password sign-in of a user without a second factor; answers its cookies. */
export async function passwordSession(port: number, userName: string): Promise<string> {
  const r = await expectStatus(200, { port, method: 'POST', path: '/api/account/login', body: { UserName: userName, Password: PASSWORD } });
  return cookiesFrom(r);
}

/** Splits `items` into `n` disjoint shares, so no two workers ever use one account at once. */
export function shares<T>(items: readonly T[], n: number): T[][] {
  const out: T[][] = Array.from({ length: n }, () => []);
  items.forEach((x, i) => out[i % n].push(x));
  return out;
}
