import { requirePermission } from '../../authz/require-permission';
import { realmDb, type DomainContext } from '../../realm/context';
import { reachGroups, type ReachedGroup } from '../groups/graph';
import { loadGroupGraph, type GroupInfo } from '../groups/graph-repo';
import { requireUserRecord } from './repo';

// GET /api/user/{id}/groups (spec 4.7): the groups a user belongs to directly and those reached
// through nesting (spec 5.7), each with the chain it is inherited through.

export type GroupRef = { Id: string; Name: string };
export type UserGroupView = {
  Id: string;
  Name: string;
  Description: string | null;
  BoundTo: string[];
  IsBuiltIn: boolean;
  Direct: boolean;
  Path: GroupRef[];
};

export async function listUserGroups(ctx: DomainContext, userId: string): Promise<UserGroupView[]> {
  await requirePermission(ctx, 'user:read');
  const db = await realmDb(ctx.realm);
  await requireUserRecord(db, userId);
  const [graph, direct] = await Promise.all([loadGroupGraph(db), db.groupMember.findMany({ where: { userId }, select: { groupId: true } })]);
  const reached = reachGroups(
    direct.map((m) => m.groupId),
    graph.parentsOf,
  );
  return sortReached([...reached.values()]).map((r) => toView(r, graph.groups));
}

/** Direct groups first, then by distance, then by name. */
export function sortReached(items: ReachedGroup[]): ReachedGroup[] {
  return items.sort((a, b) => Number(b.direct) - Number(a.direct) || a.path.length - b.path.length || a.id.localeCompare(b.id));
}

export function refsOf(path: readonly string[], groups: ReadonlyMap<string, GroupInfo>): GroupRef[] {
  return path.map((id) => ({ Id: id, Name: groups.get(id)?.name ?? id }));
}

function toView(r: ReachedGroup, groups: ReadonlyMap<string, GroupInfo>): UserGroupView {
  const g = groups.get(r.id);
  return {
    Id: r.id,
    Name: g?.name ?? r.id,
    Description: g?.description ?? null,
    BoundTo: g?.boundTo ?? [],
    IsBuiltIn: g?.isBuiltIn ?? false,
    Direct: r.direct,
    Path: refsOf(r.path, groups),
  };
}
