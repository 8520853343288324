import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPermission } from '../../authz/evaluate';
import { invalidateGroupGraph } from '../../authz/group-graph';
import { newId } from '../../crypto/tokens';
import type { RealmDb } from '../../db/types';
import { domainContext } from '../../realm/context';
import { tempRealmDb } from '../../testing/temp-realm-db';
import { errorCodeOf, unitRealm } from '../../testing/unit-realm';
import { BUILT_IN_IDS } from '../built-in-ids';
import { seedRealm } from '../realms/seed-realm';
import { insertUser } from '../users/insert-user';
import { createClientWithIntent } from './create-client-with-intent';

// No escalation through a service account's client (spec 4.7 "OAuth clients"): linking a new client
// to a service account hands whoever holds its secret everything the account's groups confer,
// woken or not (dormant groups, nested parents). So the create succeeds exactly when the actor holds
// all of that, and a refused create leaves nothing behind. The model below is independent of the
// guard: the union of the permissions of the account's groups and their ancestors, BoundTo ignored.

const POOL = ['user:read', 'user:write', 'user:admin', 'session:read', 'gdpr:admin', 'authorization-group:write', 'oauth-scope:read', 'realm:admin'] as const;
const GROUPS = 4;
const BASE = ['oauth-client:write', 'service-account:write'];

type World = {
  groups: { permissions: string[]; dormant: boolean; parents: number[] }[];
  account: number[];
  actor: string[];
};

const worldArb: fc.Arbitrary<World> = fc.record({
  groups: fc.tuple(
    ...Array.from({ length: GROUPS }, (_, i) =>
      fc.record({
        permissions: fc.subarray([...POOL]),
        dormant: fc.boolean(),
        // Parents have higher indexes: no cycles.
        parents: fc.subarray(Array.from({ length: GROUPS - i - 1 }, (_, k) => i + k + 1)),
      }),
    ),
  ),
  account: fc.subarray([0, 1, 2, 3]),
  actor: fc.subarray([...POOL.filter((p) => p !== 'realm:admin')]),
});

/** What the account could hold: its groups, their ancestors, every role; BoundTo ignored. */
function potential(world: World): Set<string> {
  const seen = new Set<number>();
  const walk = (g: number) => {
    if (seen.has(g)) return;
    seen.add(g);
    for (const p of world.groups[g].parents) walk(p);
  };
  for (const g of world.account) walk(g);
  return new Set([...seen].flatMap((g) => world.groups[g].permissions));
}

let db: RealmDb;
let name: string;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ db, name, dispose } = await tempRealmDb());
  await db.$transaction((tx) => seedRealm(tx, { isControlPlane: false, displayName: 'Unit' }));
});
afterAll(async () => dispose());

async function role(permissions: readonly string[]): Promise<string> {
  const id = newId();
  await db.permissionRole.create({
    data: { id, name: `r-${id}`, nameNormalized: `r-${id}`, appId: BUILT_IN_IDS.mainApp, permissions: JSON.stringify(permissions) },
  });
  return id;
}

async function group(roleId: string, boundTo: string[], parentIds: string[] = []): Promise<string> {
  const id = newId();
  await db.group.create({
    data: {
      id,
      name: `g-${id}`,
      nameNormalized: `g-${id}`,
      boundTo: JSON.stringify(boundTo),
      roles: { create: [{ roleId }] },
      parents: { create: parentIds.map((parentId) => ({ parentId })) },
    },
  });
  return id;
}

async function build(world: World) {
  const groupIds: string[] = new Array(GROUPS);
  for (let i = GROUPS - 1; i >= 0; i--) {
    const g = world.groups[i];
    groupIds[i] = await group(
      await role(g.permissions),
      g.dormant ? [] : ['*'],
      g.parents.map((p) => groupIds[p]),
    );
  }
  const accountId = newId();
  await db.serviceAccount.create({
    data: {
      id: accountId,
      name: `sa-${accountId}`,
      nameNormalized: `sa-${accountId}`,
      groups: { create: world.account.map((g) => ({ groupId: groupIds[g] })) },
    },
  });
  const actor = await insertUser(db, unitRealm(name), { userName: `u-${accountId}`, email: `u-${accountId}@example.test` });
  const own = await group(await role([...BASE, ...world.actor]), ['*']);
  await db.groupMember.create({ data: { groupId: own, userId: actor.id } });
  invalidateGroupGraph();
  return { accountId, actorId: actor.id };
}

describe('creating a client linked to a service account', () => {
  it('succeeds exactly when the actor holds everything the account could hold, and a refusal leaves nothing behind', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (world) => {
        const { accountId, actorId } = await build(world);
        const ctx = domainContext(unitRealm(name), { kind: 'user', userId: actorId, userName: 'actor', sessionId: null });
        const held = new Set([...BASE, ...world.actor]);
        const allowed = [...potential(world)].every((p) => hasPermission(held, p));
        const clientId = `c-${newId()}`;
        const outcome = await errorCodeOf(
          createClientWithIntent(ctx, {
            ClientId: clientId,
            DisplayName: 'Robot',
            ClientType: 'Confidential',
            GrantTypes: ['client_credentials'],
            Scopes: [],
            ServiceAccountId: accountId,
          }),
        );
        expect(outcome).toBe(allowed ? 'ok' : 'Auth.Forbidden');
        const row = await db.oAuthClient.findUnique({ where: { clientId }, select: { id: true, serviceAccountId: true } });
        const credentials = await db.serviceAccountCredential.count({ where: { serviceAccountId: accountId } });
        if (allowed) {
          expect(row?.serviceAccountId).toBe(accountId);
          expect(credentials).toBe(1);
        } else {
          expect(row).toBeNull();
          expect(credentials).toBe(0);
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
