import type { GroupNode } from '../../../authz/evaluate';
import { invalidateGroupGraph, loadGroupNodes, peekGroupGraph } from '../../../authz/group-graph';
import type { RealmRecord } from '../../../realm/realm-record';
import { realmDb } from '../../../realm/context';
import type { DerivedStore } from '../../../runtime/derived-stores';
import { stableJson } from '../compare';

// The cached group graph (groups, nesting, BoundTo, roles and their permissions) that every
// permission check walks (lib/authz/group-graph.ts), against the realm's tables.

/** A node with its lists in a fixed order, so equal graphs compare equal. */
function canonical(node: GroupNode): string {
  return stableJson({
    boundTo: [...node.boundTo].sort(),
    parentIds: [...node.parentIds].sort(),
    roles: node.roles.map((r) => ({ ...r, permissions: [...r.permissions].sort() })).sort((a, b) => stableJson(a).localeCompare(stableJson(b))),
  });
}

export function graphDifferences(cached: Map<string, GroupNode>, fresh: Map<string, GroupNode>): string[] {
  const out: string[] = [];
  for (const [id, node] of fresh) {
    const copy = cached.get(id);
    if (!copy) out.push(`Group ${id} is missing from the cached group graph.`);
    else if (canonical(copy) !== canonical(node)) out.push(`Group ${id}: the cached nesting, binding, roles or permissions are out of date.`);
  }
  for (const id of cached.keys()) if (!fresh.has(id)) out.push(`Group ${id} no longer exists but is still in the cached group graph.`);
  return out;
}

export const groupGraphStore: DerivedStore = {
  name: 'GroupGraph',
  async check(realm: RealmRecord) {
    const cached = peekGroupGraph(realm.id);
    if (!cached) return [];
    const copy = await cached.catch(() => null);
    if (!copy) return ['The cached group graph failed to load.'];
    return graphDifferences(copy, await loadGroupNodes(await realmDb(realm)));
  },
  async rebuild(realm: RealmRecord) {
    if (!peekGroupGraph(realm.id)) return [];
    invalidateGroupGraph(realm.id);
    return ['Dropped the cached group graph; the next permission check reads it afresh.'];
  },
};
