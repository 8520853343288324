import type { RealmTx } from '../../db/types';
import { parseStringList } from '../../db/json-list';
import { BUILT_IN_IDS } from '../built-in-ids';
import type { MemberMap } from './graph';

// Loads the group nesting graph of a realm. Groups number in the tens to hundreds, so the whole
// graph (without members) is read in two queries and walked in memory by graph.ts. A RealmDb is a
// RealmTx with more methods, so both a handle and a transaction can be passed.

export type GroupInfo = { id: string; name: string; description: string | null; boundTo: string[]; isBuiltIn: boolean };
export type GroupGraph = { groups: Map<string, GroupInfo>; parentsOf: Map<string, string[]> };

/**
 * Serialises the writes that change who holds what, or who administers the realm, until the
 * transaction ends: a no-op write on the built-in Administrators row (it always exists) takes
 * PostgreSQL's row lock and SQLite's write lock, so the state read next is the one that commits.
 */
export async function lockPermissionGraph(tx: RealmTx): Promise<void> {
  await tx.group.update({ where: { id: BUILT_IN_IDS.administratorsGroup }, data: { isBuiltIn: true } });
}

export async function loadGroupGraph(db: RealmTx): Promise<GroupGraph> {
  // One after another: also used inside transactions, which have one connection.
  const rows = await db.group.findMany({ select: { id: true, name: true, description: true, boundTo: true, isBuiltIn: true } });
  const edges = await db.groupParent.findMany({ select: { childId: true, parentId: true } });
  const groups = new Map(rows.map((g) => [g.id, { ...g, boundTo: parseStringList(g.boundTo) }]));
  return { groups, parentsOf: parentMap(edges) };
}

export async function loadParentMap(db: RealmTx): Promise<Map<string, string[]>> {
  return parentMap(await db.groupParent.findMany({ select: { childId: true, parentId: true } }));
}

function parentMap(edges: { childId: string; parentId: string }[]): Map<string, string[]> {
  const parentsOf = new Map<string, string[]>();
  for (const e of edges) (parentsOf.get(e.childId) ?? parentsOf.set(e.childId, []).get(e.childId)!).push(e.parentId);
  return parentsOf;
}

/** Direct members of the given groups; `liveOnly` keeps active, non-deleted users (spec 5.7). */
export async function loadMembers(db: RealmTx, groupIds: readonly string[], liveOnly: boolean): Promise<MemberMap> {
  const rows = await db.groupMember.findMany({
    where: { groupId: { in: [...groupIds] }, ...(liveOnly ? { user: { isActive: true, deletedAt: null } } : {}) },
    select: { groupId: true, userId: true },
  });
  const members = new Map<string, string[]>();
  for (const r of rows) (members.get(r.groupId) ?? members.set(r.groupId, []).get(r.groupId)!).push(r.userId);
  return members;
}

/** Service accounts that are direct members of the given groups (spec 5.7: they hold permissions as users do). */
export async function loadServiceAccountMembers(db: RealmTx, groupIds: readonly string[]): Promise<MemberMap> {
  const rows = await db.serviceAccountGroup.findMany({ where: { groupId: { in: [...groupIds] } }, select: { groupId: true, serviceAccountId: true } });
  const members = new Map<string, string[]>();
  for (const r of rows) (members.get(r.groupId) ?? members.set(r.groupId, []).get(r.groupId)!).push(r.serviceAccountId);
  return members;
}
