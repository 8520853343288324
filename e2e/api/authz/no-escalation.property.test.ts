import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, realmWithAdmin, type ApiResponse, type CookieJar, type SignedIn } from '../support/harness';
import { patchSettings } from '../mfa/fixtures';
import { ADMINISTRATORS, MAIN_APP_ID, makeUser, REALM_ADMIN_ROLE, signedIn, type MadeUser } from '../users/fixtures';

// The no-escalation invariant as a property (issue 8): random sequences of admin operations on
// users, groups, roles, memberships, BoundTo and service accounts, issued by random
// non-administrators one after another and then all at once, never leave anybody (the actors,
// bystanders, the administrator, service accounts old and new) having gained or lost a Gatehouse
// permission that none of the actors held to begin with. Every answer is a 2xx or a 4xx. A deleted
// user holds nothing (they cannot sign in), so deleting and restoring users is part of it: the
// bystander may start deleted, and bringing them back is a gain like any other.

// What the actors may start with (through a group and role of their own), and what shared roles
// carry besides: the latter are outside the actors' authority, so spreading or stripping them (or
// realm:admin) is a violation.
const ACTOR_POOL = ['user:read', 'user:write', 'authorization-group:read', 'authorization-group:write', 'permission-role:write', 'service-account:write'];
const POOL = [...ACTOR_POOL, 'permission-role:read', 'session:read', 'oauth-client:write', 'gdpr:admin'];
const ROLES = 4;
const GROUPS = 4;
const ACTORS = 3;

let host: string;
let admin: SignedIn;
let probe: MadeUser;

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
  // Each run signs its actors in: more sign-ins from one address than the default ceiling allows.
  await patchSettings(host, admin.jar, { RateLimits: { login: { Source: { Points: 10_000, DurationSeconds: 60 } } } });
  probe = await makeUser(host, admin.jar);
});

// ---- the generated world and operations --------------------------------------------------------

type GroupSpec = { roles: number[]; realmAdmin: boolean; boundAll: boolean; parents: number[] };
type World = {
  roles: string[][];
  groups: GroupSpec[];
  /** What each actor's own role holds. */
  own: string[][];
  /** Shared groups each actor (0..ACTORS-1) and the bystander (ACTORS) is in; actors join dormant ones only. */
  members: number[][];
  accounts: { groups: number[]; active: boolean }[];
  /** Whether the bystander starts soft-deleted (by the administrator). */
  bystanderDeleted: boolean;
};

const idx = (n: number) => fc.integer({ min: 0, max: n - 1 });
const worldArb: fc.Arbitrary<World> = fc.record({
  roles: fc.array(fc.subarray(POOL, { minLength: 1 }), { minLength: ROLES, maxLength: ROLES }),
  groups: fc.tuple(
    ...Array.from({ length: GROUPS }, (_, i) =>
      fc
        .record({
          roles: fc.subarray([0, 1, 2, 3]),
          realmAdmin: fc.boolean(),
          boundAll: fc.boolean(),
          parents: fc.subarray(Array.from({ length: GROUPS - i - 1 }, (_, k) => i + k + 1)),
        })
        // A realm-admin role sits only in dormant groups: the actors start as non-administrators.
        .map((g) => ({ ...g, realmAdmin: g.realmAdmin && !g.boundAll })),
    ),
  ),
  own: fc.array(fc.subarray(ACTOR_POOL, { minLength: 2 }), { minLength: ACTORS, maxLength: ACTORS }),
  members: fc.array(fc.subarray([0, 1, 2, 3]), { minLength: ACTORS + 1, maxLength: ACTORS + 1 }),
  accounts: fc.array(fc.record({ groups: fc.subarray([0, 1, 2, 3]), active: fc.boolean() }), { minLength: 2, maxLength: 2 }),
  bystanderDeleted: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
});

/**
 * A group reference: the shared groups, then the actors' own, then ones created during the run;
 * -1 is Administrators. Roles likewise, -1 being the built-in realm-admin role.
 */
const groupRef = fc.integer({ min: -1, max: GROUPS + ACTORS + 1 });
const roleRef = fc.integer({ min: -1, max: ROLES + ACTORS + 1 });
const userRef = fc.integer({ min: 0, max: ACTORS + 1 }); // actors, the bystander, the administrator

// Group and role changes are made one aspect at a time, the way an attacker (or the console) would:
// re-bind, take or drop one role, re-nest; add or drop one permission of a role.
type Op =
  | { op: 'rebind'; group: number; boundTo: string[] }
  | { op: 'addRole' | 'dropRole'; group: number; role: number }
  | { op: 'nest'; group: number; parents: number[] }
  | { op: 'grantRole' | 'revokeRole'; role: number; permission: string }
  | { op: 'join' | 'leave'; user: number; group: number }
  | { op: 'deleteUser' | 'restoreUser'; user: number }
  | { op: 'putAccount'; account: number; groups: number[]; active?: boolean }
  | { op: 'createAccount'; groups: number[] }
  | { op: 'createGroup'; roles: number[]; parents: number[]; boundTo: string[] }
  | { op: 'createRole'; permissions: string[] }
  | { op: 'deleteGroup'; group: number }
  | { op: 'deleteRole'; role: number };

const boundToArb = fc.constantFrom<string[]>([], ['*'], ['gatehouse']);
const permissionArb = fc.constantFrom(...POOL, 'realm:admin', 'realm:admin');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('rebind' as const), group: groupRef, boundTo: boundToArb }),
  fc.record({ op: fc.constantFrom('addRole' as const, 'dropRole' as const), group: groupRef, role: roleRef }),
  fc.record({ op: fc.constant('nest' as const), group: groupRef, parents: fc.uniqueArray(groupRef, { maxLength: 2 }) }),
  fc.record({ op: fc.constantFrom('grantRole' as const, 'revokeRole' as const), role: roleRef, permission: permissionArb }),
  fc.record({ op: fc.constantFrom('join' as const, 'leave' as const), user: userRef, group: groupRef }),
  // Weighted, and aimed mostly at the bystander (who may start deleted): restoring someone who holds
  // more than the actors is the escalation to find.
  {
    arbitrary: fc.record({ op: fc.constantFrom('deleteUser' as const, 'restoreUser' as const), user: fc.oneof(fc.constant(ACTORS), userRef) }),
    weight: 4,
  },
  fc.record({
    op: fc.constant('putAccount' as const),
    account: fc.integer({ min: 0, max: 3 }),
    groups: fc.uniqueArray(groupRef, { maxLength: 3 }),
    active: fc.option(fc.boolean(), { nil: undefined }),
  }),
  fc.record({ op: fc.constant('createAccount' as const), groups: fc.uniqueArray(groupRef, { maxLength: 2 }) }),
  fc.record({
    op: fc.constant('createGroup' as const),
    roles: fc.uniqueArray(roleRef, { maxLength: 2 }),
    parents: fc.uniqueArray(groupRef, { maxLength: 2 }),
    boundTo: boundToArb,
  }),
  fc.record({ op: fc.constant('createRole' as const), permissions: fc.subarray([...POOL, 'realm:admin'], { minLength: 1 }) }),
  fc.record({ op: fc.constant('deleteGroup' as const), group: groupRef }),
  fc.record({ op: fc.constant('deleteRole' as const), role: roleRef }),
);
const stepArb = fc.record({ actor: idx(ACTORS), op: opArb });

// ---- running it against the server -------------------------------------------------------------

type Live = {
  tag: string;
  roleIds: string[];
  groupIds: string[];
  users: { id: string; jar: CookieJar }[];
  accountIds: string[];
};

async function ok(res: ApiResponse, what: string): Promise<ApiResponse> {
  if (res.status >= 300) throw new Error(`${what} answered ${res.status}: ${res.text}`);
  return res;
}

async function build(world: World): Promise<Live> {
  const tag = Math.random().toString(36).slice(2, 8);
  const roleIds: string[] = [];
  for (const [i, permissions] of world.roles.entries()) {
    roleIds.push(
      (
        await ok(
          await api(host, 'POST', '/api/role', { cookie: admin.jar, body: { Name: `p-${tag}-r${i}`, AppId: MAIN_APP_ID, Permissions: permissions } }),
          'role',
        )
      ).body.Id,
    );
  }
  // Parents have higher indexes, so they are created first.
  const groupIds: string[] = new Array(GROUPS);
  for (let i = GROUPS - 1; i >= 0; i--) {
    const g = world.groups[i];
    const body = {
      Name: `p-${tag}-g${i}`,
      BoundTo: g.boundAll ? ['*'] : [],
      RoleIds: [...g.roles.map((r) => roleIds[r]), ...(g.realmAdmin ? [REALM_ADMIN_ROLE] : [])],
      ParentGroupIds: g.parents.map((p) => groupIds[p]),
    };
    groupIds[i] = (await ok(await api(host, 'POST', '/api/group', { cookie: admin.jar, body }), 'group')).body.Id;
  }
  for (const [i, permissions] of world.own.entries()) {
    const role = await ok(
      await api(host, 'POST', '/api/role', { cookie: admin.jar, body: { Name: `p-${tag}-own${i}`, AppId: MAIN_APP_ID, Permissions: permissions } }),
      'own role',
    );
    roleIds.push(role.body.Id);
    const group = await ok(
      await api(host, 'POST', '/api/group', { cookie: admin.jar, body: { Name: `p-${tag}-own${i}`, RoleIds: [role.body.Id] } }),
      'own group',
    );
    groupIds.push(group.body.Id);
  }
  const users: Live['users'] = [];
  for (const [i, shared] of world.members.entries()) {
    const u = await makeUser(host, admin.jar);
    const actor = i < ACTORS;
    const groups = actor ? [...shared.filter((g) => !world.groups[g].boundAll).map((g) => groupIds[g]), groupIds[GROUPS + i]] : shared.map((g) => groupIds[g]);
    for (const g of groups) await ok(await api(host, 'POST', `/api/user/${u.id}/groups`, { cookie: admin.jar, body: { GroupId: g } }), 'join');
    users.push({ id: u.id, jar: actor ? await signedIn(host, u) : admin.jar });
    if (!actor && world.bystanderDeleted) await ok(await api(host, 'DELETE', `/api/user/${u.id}`, { cookie: admin.jar }), 'delete bystander');
  }
  users.push({ id: admin.userId!, jar: admin.jar });
  const accountIds: string[] = [];
  for (const [i, a] of world.accounts.entries()) {
    const body = { Name: `p-${tag}-sa${i}`, GroupIds: a.groups.map((g) => groupIds[g]), IsActive: a.active };
    accountIds.push((await ok(await api(host, 'POST', '/api/service-account', { cookie: admin.jar, body }), 'account')).body.Id);
  }
  return { tag, roleIds, groupIds, users, accountIds };
}

const groupId = (live: Live, ref: number) => (ref === -1 ? ADMINISTRATORS : (live.groupIds[ref] ?? `missing-${ref}`));
const roleId = (live: Live, ref: number) => (ref === -1 ? REALM_ADMIN_ROLE : (live.roleIds[ref] ?? `missing-${ref}`));

type GroupNow = { Name: string; BoundTo: string[]; RoleIds: string[]; ParentGroupIds: string[] };
type RoleNow = { Name: string; Permissions: string[] };

/** The group as it is now (read by the administrator), so a PUT changes one aspect only. */
async function groupNow(id: string): Promise<GroupNow> {
  const res = await api(host, 'GET', `/api/group/${id}`, { cookie: admin.jar });
  return res.status === 200 ? res.body : { Name: 'gone', BoundTo: ['*'], RoleIds: [], ParentGroupIds: [] };
}

async function roleNow(id: string): Promise<RoleNow> {
  const res = await api(host, 'GET', `/api/role/${id}`, { cookie: admin.jar });
  return res.status === 200 ? res.body : { Name: 'gone', Permissions: ['user:read'] };
}

function putGroup(cookie: CookieJar, id: string, g: GroupNow): Promise<ApiResponse> {
  return api(host, 'PUT', `/api/group/${id}`, { cookie, body: { Name: g.Name, BoundTo: g.BoundTo, RoleIds: g.RoleIds, ParentGroupIds: g.ParentGroupIds } });
}

function putRole(cookie: CookieJar, id: string, r: RoleNow, permissions: string[]): Promise<ApiResponse> {
  return api(host, 'PUT', `/api/role/${id}`, {
    cookie,
    body: { Name: r.Name, AppId: MAIN_APP_ID, Permissions: permissions.length ? permissions : ['user:read'] },
  });
}

let counter = 0;
async function run(live: Live, actor: number, step: Op): Promise<ApiResponse> {
  const cookie = live.users[actor].jar;
  const name = `p-${live.tag}-${++counter}`;
  switch (step.op) {
    case 'rebind': {
      const id = groupId(live, step.group);
      return putGroup(cookie, id, { ...(await groupNow(id)), BoundTo: step.boundTo });
    }
    case 'addRole':
    case 'dropRole': {
      const id = groupId(live, step.group);
      const g = await groupNow(id);
      const role = roleId(live, step.role);
      return putGroup(cookie, id, { ...g, RoleIds: step.op === 'addRole' ? [...new Set([...g.RoleIds, role])] : g.RoleIds.filter((r) => r !== role) });
    }
    case 'nest': {
      const id = groupId(live, step.group);
      return putGroup(cookie, id, { ...(await groupNow(id)), ParentGroupIds: step.parents.map((p) => groupId(live, p)) });
    }
    case 'grantRole':
    case 'revokeRole': {
      const id = roleId(live, step.role);
      const r = await roleNow(id);
      const permissions = step.op === 'grantRole' ? [...new Set([...r.Permissions, step.permission])] : r.Permissions.filter((p) => p !== step.permission);
      return putRole(cookie, id, r, permissions);
    }
    case 'join':
      return api(host, 'POST', `/api/user/${live.users[step.user].id}/groups`, { cookie, body: { GroupId: groupId(live, step.group) } });
    case 'leave':
      return api(host, 'DELETE', `/api/user/${live.users[step.user].id}/groups/${groupId(live, step.group)}`, { cookie });
    case 'deleteUser':
      return api(host, 'DELETE', `/api/user/${live.users[step.user].id}`, { cookie });
    case 'restoreUser':
      return api(host, 'POST', `/api/user/${live.users[step.user].id}/restore`, { cookie });
    case 'putAccount':
      return api(host, 'PUT', `/api/service-account/${live.accountIds[step.account] ?? 'missing'}`, {
        cookie,
        body: { GroupIds: step.groups.map((g) => groupId(live, g)), ...(step.active === undefined ? {} : { IsActive: step.active }) },
      });
    case 'createAccount': {
      const res = await api(host, 'POST', '/api/service-account', { cookie, body: { Name: name, GroupIds: step.groups.map((g) => groupId(live, g)) } });
      if (res.status === 201) live.accountIds.push(res.body.Id);
      return res;
    }
    case 'createGroup': {
      const res = await api(host, 'POST', '/api/group', {
        cookie,
        body: { Name: name, RoleIds: step.roles.map((r) => roleId(live, r)), ParentGroupIds: step.parents.map((p) => groupId(live, p)), BoundTo: step.boundTo },
      });
      if (res.status === 201) live.groupIds.push(res.body.Id);
      return res;
    }
    case 'createRole': {
      const res = await api(host, 'POST', '/api/role', { cookie, body: { Name: name, AppId: MAIN_APP_ID, Permissions: step.permissions } });
      if (res.status === 201) live.roleIds.push(res.body.Id);
      return res;
    }
    case 'deleteGroup':
      return api(host, 'DELETE', `/api/group/${groupId(live, step.group)}`, { cookie });
    case 'deleteRole':
      return api(host, 'DELETE', `/api/role/${roleId(live, step.role)}`, { cookie });
  }
}

// ---- what everybody holds ----------------------------------------------------------------------

async function userHoldings(userId: string): Promise<Set<string>> {
  // A deleted user holds nothing: restoring them hands back what their groups give.
  const user = await ok(await api(host, 'GET', `/api/user/${userId}`, { cookie: admin.jar }), 'user');
  if (user.body.IsDeleted) return new Set();
  const res = await ok(await api(host, 'GET', `/api/user/${userId}/effective-groups`, { cookie: admin.jar }), 'effective-groups');
  return new Set(res.body.Permissions.find((p: { App: string }) => p.App === 'gatehouse')?.Permissions ?? []);
}

/** A service account holds what a user in exactly its groups holds (spec 5.7); an inactive one nothing. */
async function accountHoldings(accountId: string): Promise<Set<string>> {
  const account = await api(host, 'GET', `/api/service-account/${accountId}`, { cookie: admin.jar });
  if (account.status === 404 || !account.body.IsActive) return new Set();
  const current = (await ok(await api(host, 'GET', `/api/user/${probe.id}/groups`, { cookie: admin.jar }), 'probe groups')).body as {
    Id: string;
    Direct: boolean;
  }[];
  for (const g of current.filter((x) => x.Direct))
    await ok(await api(host, 'DELETE', `/api/user/${probe.id}/groups/${g.Id}`, { cookie: admin.jar }), 'probe leave');
  for (const g of account.body.GroupIds as string[])
    await ok(await api(host, 'POST', `/api/user/${probe.id}/groups`, { cookie: admin.jar, body: { GroupId: g } }), 'probe join');
  return userHoldings(probe.id);
}

async function holdings(live: Live): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const u of live.users) out.set(`user:${u.id}`, await userHoldings(u.id));
  for (const a of live.accountIds) out.set(`service-account:${a}`, await accountHoldings(a));
  return out;
}

/** spec 5.7.5 over a set of grants: realm:admin, the permission, or `<resource>:admin`. */
function covers(grants: Set<string>, permission: string): boolean {
  const resource = permission.slice(0, permission.lastIndexOf(':'));
  return grants.has('realm:admin') || grants.has(permission) || grants.has(`${resource}:admin`);
}

describe('property: no sequence of operations by non-administrators spreads what none of them held', () => {
  it('sequential, then concurrent', async () => {
    await fc.assert(
      fc.asyncProperty(
        worldArb,
        fc.array(stepArb, { minLength: 8, maxLength: 16 }),
        fc.array(stepArb, { minLength: 2, maxLength: 6 }),
        async (world, sequence, burst) => {
          const live = await build(world);
          const before = await holdings(live);
          const authority = new Set<string>();
          for (let a = 0; a < ACTORS; a++) for (const p of before.get(`user:${live.users[a].id}`)!) authority.add(p);
          expect(authority.has('realm:admin')).toBe(false);

          const answers: ApiResponse[] = [];
          for (const { actor, op } of sequence) answers.push(await run(live, actor, op));
          answers.push(...(await Promise.all(burst.map(({ actor, op }) => run(live, actor, op)))));
          for (const res of answers) expect(res.status, res.text).toBeLessThan(500);

          const after = await holdings(live);
          const violations: string[] = [];
          for (const [principal, now] of after) {
            const was = before.get(principal) ?? new Set<string>();
            for (const p of [...now].filter((x) => !was.has(x))) if (!covers(authority, p)) violations.push(`${principal} gained ${p}`);
            for (const p of [...was].filter((x) => !now.has(x))) if (!covers(authority, p)) violations.push(`${principal} lost ${p}`);
          }
          expect(violations).toEqual([]);
        },
      ),
      {
        numRuns: Number(process.env.GATEHOUSE_PROPERTY_RUNS ?? 15),
        endOnFailure: true,
        // Replays a reported failure: GATEHOUSE_PROPERTY_SEED=<seed> GATEHOUSE_PROPERTY_PATH=<path>.
        ...(process.env.GATEHOUSE_PROPERTY_SEED ? { seed: Number(process.env.GATEHOUSE_PROPERTY_SEED), path: process.env.GATEHOUSE_PROPERTY_PATH } : {}),
      },
    );
    // Each run builds a realm's worth of users, groups and roles over HTTP: 15 runs take well over the
    // default minute on a loaded machine.
  }, 300_000);
});
