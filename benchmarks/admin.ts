import { expectStatus, sessionCookieFrom } from './http';
import { runCli } from './launch-server';

// Administrators for the bench: the control plane's through the CLI (CONTRACT.md "Running it"),
// a realm's through its single-use invite, redeemed over the API.

export const PASSWORD = 'bench-password-1234';

/** `gatehouse recover bootstrap-admin --email E --password P` (control plane), then a password login. */
export async function controlPlaneAdmin(env: NodeJS.ProcessEnv, port: number, userName: string): Promise<string> {
  await runCli(env, ['recover', 'bootstrap-admin', '--email', `${userName}@bench.test`, '--username', userName, '--password', PASSWORD]);
  return login(port, 'localhost', userName);
}

/** A password login; answers the session cookie. */
export async function login(port: number, host: string, userName: string): Promise<string> {
  const r = await expectStatus(200, { port, host, method: 'POST', path: '/api/account/login', body: { UserName: userName, Password: PASSWORD } });
  return sessionCookieFrom(r);
}

/** Issues the realm's admin invite (control-plane API) and redeems it on the realm's host. */
export async function realmAdminSession(port: number, controlCookie: string, slug: string, host: string): Promise<string> {
  const invite = await expectStatus(201, {
    port,
    method: 'POST',
    path: `/api/admin/realms/${slug}/admin-invites`,
    cookie: controlCookie,
    body: { UserName: 'admin', Email: `admin@${host}` },
  });
  const token = new URL(invite.json<{ MagicLinkUrl: string }>().MagicLinkUrl).searchParams.get('token');
  if (!token) throw new Error(`no token in the invite of ${slug}`);
  const redeemed = await expectStatus(200, { port, host, method: 'POST', path: '/api/account/bootstrap-admin', body: { Token: token, Password: PASSWORD } });
  return sessionCookieFrom(redeemed);
}
