import { MAIN_APP_SLUG, type MainAppPermission } from '../../authz/catalog';
import { collectGrants, hasPermission } from '../../authz/evaluate';
import type { Principal } from '../../authz/grants-repo';
import { loadGroupNodes } from '../../authz/group-graph';
import { actorGrants, changedGroups, changedHoldings, GUARDED_APPS, unheldChanges, type AuthzState } from '../../authz/holdings';
import type { RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import type { DomainContext } from '../../realm/context';
import { lockPermissionGraph } from './graph-repo';

// The no-escalation rule (lib/authz/holdings.ts) enforced on the state that commits. Every write
// that can change who holds what (group roles, nesting and BoundTo; role permissions and App;
// memberships of users and service accounts; deleting any of them) runs its writes through
// `guardGrantChange` inside its transaction:
//   1. it takes the realm's permission-graph lock, so such writes are serialised (PostgreSQL row lock,
//      SQLite write lock) and two changes that are harmless alone cannot both pass;
//   2. it reads the actor's authority afresh (no cache, no memo) and checks the operation's own
//      permission again;
//   3. it runs the writes, reads the resulting graph, and refuses, rolling everything back, when any
//      principal would gain or lose a Gatehouse permission the actor does not hold.
// Its reads run one after another: a transaction has one connection (see authz/group-graph.ts).
// Nothing is skipped: a role with no groups, a dormant group or a group without members simply
// changes nobody's holdings and passes.

export type GrantChange = {
  /** The permission the operation needs, checked again against the fresh state (main app). */
  permission: MainAppPermission;
  /**
   * Principals whose own memberships or activity the writes change (read after the lock). Members of
   * groups whose grants change are found by the guard itself.
   */
  principals?: readonly Principal[] | ((tx: RealmTx) => Promise<readonly Principal[]>);
};

export async function guardGrantChange<T>(ctx: DomainContext, tx: RealmTx, change: GrantChange, work: () => Promise<T>): Promise<T> {
  await lockPermissionGraph(tx);
  if (ctx.actor.kind === 'system') return work();
  const actor = actorPrincipal(ctx);
  const declared = typeof change.principals === 'function' ? await change.principals(tx) : (change.principals ?? []);

  const apps = await guardedApps(tx);
  const before = await loadPrincipals(tx, [actor, ...declared]);
  const beforeGraph = await loadGroupNodes(tx);
  const authority = actorGrants({ apps, groups: beforeGraph, ...before }, keyOf(actor));
  if (!hasPermission(authority.get(MAIN_APP_SLUG) ?? new Set(), change.permission)) {
    throw new AppError('Auth.Forbidden', { detail: `Requires ${change.permission}.` });
  }

  const result = await work();

  const afterGraph = await loadGroupNodes(tx);
  const changed = changedGroups(apps, beforeGraph, afterGraph);
  const affected = dedupe([...declared, ...(changed.length ? await membersOf(tx, changed) : [])]);
  const after = await loadPrincipals(tx, affected);
  // Only the declared principals' own memberships changed: everyone else's are the same before and after.
  const loadedBefore = new Set([actor, ...declared].map(keyOf));
  const beforeState: AuthzState = {
    apps,
    groups: beforeGraph,
    memberships: new Map([...[...after.memberships].filter(([k]) => !loadedBefore.has(k)), ...before.memberships]),
    inactive: new Set([...[...after.inactive].filter((k) => !loadedBefore.has(k)), ...before.inactive]),
  };
  const changes = changedHoldings(beforeState, { apps, groups: afterGraph, ...after }, affected.map(keyOf));
  const missing = unheldChanges(changes, authority);
  if (missing.length) {
    throw new AppError('Auth.Forbidden', { detail: `This would change who holds permissions you do not hold: ${missing.join(', ')}.` });
  }
  return result;
}

/**
 * Acting on principals' credentials (setting a user's password or address, minting a service
 * account's secret) hands over everything they hold or could hold once woken (the potential view):
 * the actor must hold all of it. Checked under the same lock, on the state that commits; call it
 * inside the transaction that writes.
 */
export async function assertActorHoldsAllOf(ctx: DomainContext, tx: RealmTx, principals: readonly Principal[], detail: string): Promise<void> {
  await lockPermissionGraph(tx);
  if (ctx.actor.kind === 'system' || !principals.length) return;
  const actor = actorPrincipal(ctx);
  const apps = await guardedApps(tx);
  const groups = await loadGroupNodes(tx);
  const loaded = await loadPrincipals(tx, [actor, ...principals]);
  const held = principals.flatMap((p) =>
    apps.flatMap((app) => [...collectGrants(loaded.memberships.get(keyOf(p)) ?? [], groups, app, 'potential')].map((permission) => ({ app, permission }))),
  );
  const missing = unheldChanges(held, actorGrants({ apps, groups, ...loaded }, keyOf(actor)));
  if (missing.length) throw new AppError('Auth.Forbidden', { detail: `${detail}: ${missing.join(', ')}.` });
}

/**
 * The actor must hold every permission that membership of `groupIds` confers. For settings that hand
 * those groups to people later without a further check (a login provider's just-in-time default
 * groups): configuring them is conferring them, so nobody configures what they do not hold.
 */
export async function assertActorHoldsGroupGrants(ctx: DomainContext, tx: RealmTx, groupIds: readonly string[], detail: string): Promise<void> {
  await lockPermissionGraph(tx);
  if (ctx.actor.kind === 'system' || !groupIds.length) return;
  const actor = actorPrincipal(ctx);
  const apps = await guardedApps(tx);
  const groups = await loadGroupNodes(tx);
  const loaded = await loadPrincipals(tx, [actor]);
  const held = apps.flatMap((app) => [...collectGrants([...groupIds], groups, app, 'potential')].map((permission) => ({ app, permission })));
  const missing = unheldChanges(held, actorGrants({ apps, groups, ...loaded }, keyOf(actor)));
  if (missing.length) throw new AppError('Auth.Forbidden', { detail: `${detail}: ${missing.join(', ')}.` });
}

/**
 * What the caller holds in each guarded App, read afresh under the permission-graph lock: for
 * checks that must hold on the state that commits (call it inside the transaction).
 */
export async function freshAuthority(ctx: DomainContext, tx: RealmTx): Promise<Map<string, ReadonlySet<string>>> {
  await lockPermissionGraph(tx);
  const actor = actorPrincipal(ctx);
  const apps = await guardedApps(tx);
  const groups = await loadGroupNodes(tx);
  const loaded = await loadPrincipals(tx, [actor]);
  return actorGrants({ apps, groups, ...loaded }, keyOf(actor));
}

function actorPrincipal(ctx: DomainContext): Principal {
  const actor = ctx.actor;
  if (actor.kind === 'user') return { kind: 'user', id: actor.userId };
  if (actor.kind === 'service-account') return { kind: 'service-account', id: actor.serviceAccountId };
  throw new AppError(actor.kind === 'anonymous' ? 'Auth.Unauthenticated' : 'Auth.Forbidden');
}

function keyOf(p: Principal): string {
  return `${p.kind}:${p.id}`;
}

function dedupe(principals: Principal[]): Principal[] {
  return [...new Map(principals.map((p) => [keyOf(p), p])).values()];
}

async function guardedApps(tx: RealmTx): Promise<string[]> {
  const rows = await tx.app.findMany({ where: { slug: { in: [...GUARDED_APPS] } }, select: { slug: true } });
  return rows.map((r) => r.slug);
}

/** Direct memberships (and, for service accounts, whether they are inactive) of these principals. */
async function loadPrincipals(tx: RealmTx, principals: readonly Principal[]): Promise<Pick<AuthzState, 'memberships' | 'inactive'>> {
  const userIds = principals.filter((p) => p.kind === 'user').map((p) => p.id);
  const accountIds = principals.filter((p) => p.kind === 'service-account').map((p) => p.id);
  const userRows = userIds.length ? await tx.groupMember.findMany({ where: { userId: { in: userIds } }, select: { userId: true, groupId: true } }) : [];
  const accounts = accountIds.length
    ? await tx.serviceAccount.findMany({ where: { id: { in: accountIds } }, select: { id: true, isActive: true, groups: { select: { groupId: true } } } })
    : [];
  const memberships = new Map<string, string[]>(principals.map((p) => [keyOf(p), []]));
  for (const r of userRows) memberships.get(`user:${r.userId}`)!.push(r.groupId);
  const inactive = new Set<string>();
  for (const a of accounts) {
    memberships.set(
      `service-account:${a.id}`,
      a.groups.map((g) => g.groupId),
    );
    if (!a.isActive) inactive.add(`service-account:${a.id}`);
  }
  return { memberships, inactive };
}

/** Direct members, users and service accounts, of these groups. */
export async function membersOf(tx: RealmTx, groupIds: readonly string[]): Promise<Principal[]> {
  const users = await tx.groupMember.findMany({ where: { groupId: { in: [...groupIds] } }, select: { userId: true }, distinct: ['userId'] });
  const accounts = await tx.serviceAccountGroup.findMany({
    where: { groupId: { in: [...groupIds] } },
    select: { serviceAccountId: true },
    distinct: ['serviceAccountId'],
  });
  return [
    ...users.map((u): Principal => ({ kind: 'user', id: u.userId })),
    ...accounts.map((a): Principal => ({ kind: 'service-account', id: a.serviceAccountId })),
  ];
}
