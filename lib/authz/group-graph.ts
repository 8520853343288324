import { LRUCache } from 'lru-cache';
import { parseStringList as parseList } from '../db/json-list';
import type { RealmDb } from '../db/types';
import { subscribe } from '../events/bus';
import { shared } from '../runtime/shared';
import type { GroupNode } from './evaluate';

// The realm's group graph (groups, nesting, roles and their permissions) changes rarely and is read
// by every authorised request, so it is cached per realm and dropped on any group, role or app
// change (and on other instances through the invalidation relay). Memberships, which change with
// every user, are always read live: the walk of spec 5.7.3 still runs per request.

type Cache = LRUCache<string, Promise<Map<string, GroupNode>>>;

function cache(): Cache {
  return shared('authz.group-graph', () => new LRUCache<string, Promise<Map<string, GroupNode>>>({ max: 2_000, ttl: 60_000 }));
}

export function invalidateGroupGraph(realmId?: string): void {
  if (realmId) cache().delete(realmId);
  else cache().clear();
}

async function loadGraph(db: RealmDb): Promise<Map<string, GroupNode>> {
  const [groups, edges, links] = await Promise.all([
    db.group.findMany({ select: { id: true, boundTo: true } }),
    db.groupParent.findMany({ select: { childId: true, parentId: true } }),
    db.groupRole.findMany({ select: { groupId: true, role: { select: { name: true, permissions: true, app: { select: { slug: true } } } } } }),
  ]);
  const graph = new Map<string, GroupNode>();
  for (const g of groups) graph.set(g.id, { id: g.id, boundTo: parseList(g.boundTo), parentIds: [], roles: [] });
  for (const e of edges) graph.get(e.childId)?.parentIds.push(e.parentId);
  for (const l of links) graph.get(l.groupId)?.roles.push({ name: l.role.name, appSlug: l.role.app.slug, permissions: parseList(l.role.permissions) });
  return graph;
}

export function groupGraph(realmId: string, db: RealmDb): Promise<Map<string, GroupNode>> {
  const c = cache();
  let hit = c.get(realmId);
  if (!hit) {
    hit = loadGraph(db);
    c.set(realmId, hit);
    hit.catch(() => c.delete(realmId));
  }
  return hit;
}

const GRAPH_EVENTS = /^(group|role|app|realm)\./;

/** Drops a realm's cached graph whenever something it is built from changes. */
export function registerGroupGraphInvalidation(): void {
  shared('authz.group-graph.subscriber', () =>
    subscribe((event) => {
      if (GRAPH_EVENTS.test(event.type)) invalidateGroupGraph(event.type.startsWith('realm.') ? undefined : event.realmId);
    }),
  );
}

