import { requirePermission } from '../../authz/require-permission';
import { realmDb, type DomainContext } from '../context';
import { pageOf, type Page, type PageQuery } from '../paging';
import { displayNameOf } from '../users/user-dto';
import { descendantsOf, effectiveMembers } from './graph';
import { loadGroupGraph, loadMembers } from './graph-repo';
import { requireGroupRow } from './repo';

// GET /api/group/{id}/effective-members (spec 4.7, 5.7): direct members and members of every group
// nested below, each once with the shortest chain that makes them a member. Deleted users are not
// members of anything; inactive ones are listed with IsActive false. `search` filters on user name.

export type EffectiveMember = {
  UserId: string;
  UserName: string;
  DisplayName: string;
  IsActive: boolean;
  Direct: boolean;
  Via: { Id: string; Name: string }[];
};

export async function listEffectiveMembers(ctx: DomainContext, groupId: string, q: PageQuery): Promise<Page<EffectiveMember>> {
  await requirePermission(ctx, 'authorization-group:read');
  const db = await realmDb(ctx.realm);
  await requireGroupRow(db, groupId);
  const graph = await loadGroupGraph(db);
  const members = await loadMembers(db, [...descendantsOf(groupId, graph.parentsOf).keys()], false);
  const routes = effectiveMembers(groupId, graph.parentsOf, members);
  const term = q.search?.trim().toLowerCase();
  const users = await db.user.findMany({
    where: { id: { in: [...routes.keys()] }, deletedAt: null, ...(term ? { userNameNormalized: { contains: term } } : {}) },
    select: { id: true, userName: true, firstname: true, lastname: true, isActive: true },
  });
  const all = users
    .map((u): EffectiveMember => {
      const route = routes.get(u.id)!;
      return {
        UserId: u.id,
        UserName: u.userName,
        DisplayName: displayNameOf(u),
        IsActive: u.isActive,
        Direct: route.direct,
        Via: route.via.map((id) => ({ Id: id, Name: graph.groups.get(id)?.name ?? id })),
      };
    })
    .sort((a, b) => Number(b.Direct) - Number(a.Direct) || a.UserName.localeCompare(b.UserName));
  const start = (q.page - 1) * q.pageSize;
  return pageOf(all.slice(start, start + q.pageSize), all.length, q);
}
