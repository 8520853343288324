import { randomBytes } from 'node:crypto';
import { api, signIn, strongPassword, type CookieJar } from '../support/harness';

// Users made through POST /api/user by a realm administrator, for the user-administration tests.

export type MadeUser = { id: string; userName: string; email: string; password: string };

export async function makeUser(host: string, admin: CookieJar, extra: Record<string, unknown> = {}): Promise<MadeUser> {
  const tag = randomBytes(4).toString('hex');
  const userName = `u-${tag}`;
  const email = `${userName}@example.test`;
  const password = strongPassword();
  const res = await api(host, 'POST', '/api/user', { cookie: admin, body: { UserName: userName, Email: email, Password: password, ...extra } });
  if (res.status !== 201) throw new Error(`POST /api/user answered ${res.status}: ${res.text}`);
  return { id: res.body.Id, userName, email, password };
}

export async function signedIn(host: string, user: MadeUser): Promise<CookieJar> {
  const { res, jar } = await signIn(host, user.userName, user.password);
  if (res.status !== 200) throw new Error(`sign-in of ${user.userName} answered ${res.status}: ${res.text}`);
  return jar;
}

export const MAIN_APP_ID = '00000000-0000-4000-8000-000000000001';
export const ADMINISTRATORS = '00000000-0000-4000-8000-000000000020';
export const REALM_ADMIN_ROLE = '00000000-0000-4000-8000-000000000030';

/** A role of the built-in App and a group holding it; `user` joins the group when given. */
export async function grant(host: string, admin: CookieJar, permissions: string[], userId?: string): Promise<{ roleId: string; groupId: string }> {
  const tag = randomBytes(4).toString('hex');
  const role = await api(host, 'POST', '/api/role', { cookie: admin, body: { Name: `role-${tag}`, AppId: MAIN_APP_ID, Permissions: permissions } });
  if (role.status !== 201) throw new Error(`POST /api/role answered ${role.status}: ${role.text}`);
  const group = await api(host, 'POST', '/api/group', { cookie: admin, body: { Name: `group-${tag}`, RoleIds: [role.body.Id] } });
  if (group.status !== 201) throw new Error(`POST /api/group answered ${group.status}: ${group.text}`);
  if (userId) {
    const m = await api(host, 'POST', `/api/user/${userId}/groups`, { cookie: admin, body: { GroupId: group.body.Id } });
    if (m.status !== 201) throw new Error(`POST /api/user/${userId}/groups answered ${m.status}: ${m.text}`);
  }
  return { roleId: role.body.Id, groupId: group.body.Id };
}
