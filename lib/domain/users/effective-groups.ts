import { REALM_ADMIN } from '../../authz/catalog';
import { collectGrants, type GroupNode } from '../../authz/evaluate';
import { requirePermission } from '../../authz/require-permission';
import { realmDb, type DomainContext } from '../../realm/context';
import { effectiveFor, unknownApps } from '../groups/bound-to';
import { reachGroups } from '../groups/graph';
import { loadGroupGraph } from '../groups/graph-repo';
import { parseStringList } from '../../db/json-list';
import { requireUserRecord } from './repo';
import { refsOf, sortReached, type GroupRef } from './user-groups';

// GET /api/user/{id}/effective-groups (spec 4.7 "live membership diagnostics", 5.7): every group
// the walk reaches, whether it is dormant, the Apps it counts for, which of its roles take effect,
// and the permissions that result per App. An inactive or deleted user holds none.

export type EffectiveRole = { Id: string; Name: string; AppSlug: string; Effective: boolean };
export type EffectiveGroup = {
  Id: string;
  Name: string;
  BoundTo: string[];
  Dormant: boolean;
  EffectiveFor: string[];
  UnknownApps: string[];
  Direct: boolean;
  Path: GroupRef[];
  Roles: EffectiveRole[];
};
export type EffectiveGroupsView = {
  UserId: string;
  UserName: string;
  Live: boolean;
  Groups: EffectiveGroup[];
  Permissions: { App: string; Permissions: string[] }[];
};

export async function effectiveGroups(ctx: DomainContext, userId: string): Promise<EffectiveGroupsView> {
  await requirePermission(ctx, 'user:read');
  const db = await realmDb(ctx.realm);
  const user = await requireUserRecord(db, userId);
  const [graph, direct, apps] = await Promise.all([
    loadGroupGraph(db),
    db.groupMember.findMany({ where: { userId }, select: { groupId: true } }),
    db.app.findMany({ select: { slug: true }, orderBy: { slug: 'asc' } }),
  ]);
  const appSlugs = apps.map((a) => a.slug);
  const directIds = direct.map((m) => m.groupId);
  const reached = sortReached([...reachGroups(directIds, graph.parentsOf).values()]);
  const links = await db.groupRole.findMany({
    where: { groupId: { in: reached.map((r) => r.id) } },
    select: { groupId: true, role: { select: { id: true, name: true, permissions: true, app: { select: { slug: true } } } } },
  });

  const nodes = new Map<string, GroupNode>();
  const groups = reached.map((r): EffectiveGroup => {
    const info = graph.groups.get(r.id);
    const boundTo = info?.boundTo ?? [];
    const effective = effectiveFor(boundTo, appSlugs);
    const roles = links.filter((l) => l.groupId === r.id).map((l) => ({ ...l.role, permissions: parseStringList(l.role.permissions) }));
    nodes.set(r.id, {
      id: r.id,
      boundTo,
      parentIds: graph.parentsOf.get(r.id) ?? [],
      roles: roles.map((x) => ({ name: x.name, appSlug: x.app.slug, permissions: x.permissions })),
    });
    return {
      Id: r.id,
      Name: info?.name ?? r.id,
      BoundTo: boundTo,
      Dormant: boundTo.length === 0,
      EffectiveFor: effective,
      UnknownApps: unknownApps(boundTo, appSlugs),
      Direct: r.direct,
      Path: refsOf(r.path, graph.groups),
      Roles: roles.map((x) => ({
        Id: x.id,
        Name: x.name,
        AppSlug: x.app.slug,
        // A realm-admin role counts in every App the group is bound to (spec 5.7.3).
        Effective: effective.includes(x.app.slug) || (effective.length > 0 && x.permissions.includes(REALM_ADMIN)),
      })),
    };
  });

  const live = user.isActive && !user.deletedAt;
  const permissions = live
    ? appSlugs.map((app) => ({ App: app, Permissions: [...collectGrants(directIds, nodes, app)].sort() })).filter((p) => p.Permissions.length)
    : [];
  return { UserId: user.id, UserName: user.userName, Live: live, Groups: groups, Permissions: permissions };
}
