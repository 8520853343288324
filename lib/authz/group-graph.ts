import { LRUCache } from 'lru-cache';
import { parseStringList as parseList } from '../db/json-list';
import type { RealmDb, RealmTx } from '../db/types';
import { subscribe } from '../events/bus';
import { cachedPromise } from '../runtime/cached-promise';
import { shared } from '../runtime/shared';
import type { GroupNode } from './evaluate';
import { inEventAreas, type EventArea } from '../events/catalog';
import { realmAffectedBy } from '../events/affected-realm';

// The realm's group graph (groups, nesting, roles and their permissions) changes rarely and is read
// by every authorised request, so it is cached per realm and dropped on any group, role or app
// change (and on other instances through the invalidation relay). Memberships, which change with
// every user, are always read live: the walk of spec 5.7.3 still runs per request.

type Cache = LRUCache<string, Promise<Map<string, GroupNode>>>;

function cache(): Cache {
  return shared('authz.group-graph', () => new LRUCache<string, Promise<Map<string, GroupNode>>>({ max: 2_000, ttl: 60_000 }));
}

/** The realm's cached graph, if one is cached (read without loading or refreshing it: the maintenance check). */
export function peekGroupGraph(realmId: string): Promise<Map<string, GroupNode>> | undefined {
  return cache().peek(realmId);
}

export function invalidateGroupGraph(realmId?: string): void {
  if (realmId) cache().delete(realmId);
  else cache().clear();
}

/**
 * Reads the graph afresh (also inside a transaction, where the cache must not be used). The reads
 * run one after another: a transaction has one connection, and the driver deprecates overlapping
 * queries on it. Outside a transaction they are separate statements on pooled connections, so a
 * role (or its App) deleted between them may still have links here: those links are skipped (the
 * role grants nothing any more), never dereferenced.
 */
export async function loadGroupNodes(db: RealmTx): Promise<Map<string, GroupNode>> {
  const groups = await db.group.findMany({ select: { id: true, boundTo: true } });
  const edges = await db.groupParent.findMany({ select: { childId: true, parentId: true } });
  const links = await db.groupRole.findMany({ select: { groupId: true, roleId: true } });
  const roles = await db.permissionRole.findMany({ select: { id: true, name: true, permissions: true, appId: true } });
  const apps = new Map((await db.app.findMany({ select: { id: true, slug: true } })).map((a) => [a.id, a.slug]));
  const roleById = new Map<string, GroupNode['roles'][number]>();
  for (const r of roles) {
    const appSlug = apps.get(r.appId);
    if (appSlug) roleById.set(r.id, { name: r.name, appSlug, permissions: parseList(r.permissions) });
  }
  const graph = new Map<string, GroupNode>();
  for (const g of groups) graph.set(g.id, { id: g.id, boundTo: parseList(g.boundTo), parentIds: [], roles: [] });
  for (const e of edges) graph.get(e.childId)?.parentIds.push(e.parentId);
  for (const l of links) {
    const role = roleById.get(l.roleId);
    if (role) graph.get(l.groupId)?.roles.push(role);
  }
  return graph;
}

export function groupGraph(realmId: string, db: RealmDb): Promise<Map<string, GroupNode>> {
  return cachedPromise(cache(), realmId, () => loadGroupNodes(db));
}

const GRAPH_EVENT_AREAS: readonly EventArea[] = ['group', 'role', 'app', 'realm', 'manifest'];

/** Drops a realm's cached graph whenever something it is built from changes. */
export function registerGroupGraphInvalidation(): void {
  shared('authz.group-graph.subscriber', () =>
    subscribe((event) => {
      if (inEventAreas(event.type, GRAPH_EVENT_AREAS)) invalidateGroupGraph(realmAffectedBy(event) ?? undefined);
    }),
  );
}
