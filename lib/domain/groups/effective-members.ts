import { requirePermission } from '../../authz/require-permission';
import { realmDb, type DomainContext } from '../../realm/context';
import { pageOfAll, type Page, type PageQuery } from '../paging';
import { displayNameOf } from '../display-name';
import { descendantsOf, effectiveMembers, type MemberRoute } from './graph';
import { loadGroupGraph, loadMembers, loadServiceAccountMembers, type GroupGraph } from './graph-repo';
import { requireGroupRow } from './repo';

// GET /api/group/{id}/effective-members (spec 4.7, 5.7): direct members and members of every group
// nested below, each once with the shortest chain that makes them a member. Users and service
// accounts both hold permissions through groups, so both are listed (Kind tells them apart).
// Deleted users are not members of anything; inactive users and accounts are listed with IsActive
// false. `search` filters on the user name or the account name.

export type EffectiveMember = {
  Kind: 'User' | 'ServiceAccount';
  Id: string;
  UserId?: string;
  UserName?: string;
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
  const below = [...descendantsOf(groupId, graph.parentsOf).keys()];
  const [userMembers, accountMembers] = await Promise.all([loadMembers(db, below, false), loadServiceAccountMembers(db, below)]);
  const userRoutes = effectiveMembers(groupId, graph.parentsOf, userMembers);
  const accountRoutes = effectiveMembers(groupId, graph.parentsOf, accountMembers);
  const term = q.search?.trim().toLowerCase();
  const [users, accounts] = await Promise.all([
    db.user.findMany({
      where: { id: { in: [...userRoutes.keys()] }, deletedAt: null, ...(term ? { userNameNormalized: { contains: term } } : {}) },
      select: { id: true, userName: true, firstname: true, lastname: true, isActive: true },
    }),
    db.serviceAccount.findMany({
      where: { id: { in: [...accountRoutes.keys()] }, ...(term ? { nameNormalized: { contains: term } } : {}) },
      select: { id: true, name: true, isActive: true },
    }),
  ]);
  const all = [
    ...users.map((u): EffectiveMember => ({
      Kind: 'User',
      Id: u.id,
      UserId: u.id,
      UserName: u.userName,
      DisplayName: displayNameOf(u),
      IsActive: u.isActive,
      ...routeOf(userRoutes.get(u.id)!, graph),
    })),
    ...accounts.map((a): EffectiveMember => ({
      Kind: 'ServiceAccount',
      Id: a.id,
      DisplayName: a.name,
      IsActive: a.isActive,
      ...routeOf(accountRoutes.get(a.id)!, graph),
    })),
  ].sort((a, b) => Number(b.Direct) - Number(a.Direct) || sortName(a).localeCompare(sortName(b)));
  return pageOfAll(all, q);
}

function routeOf(route: MemberRoute, graph: GroupGraph): Pick<EffectiveMember, 'Direct' | 'Via'> {
  return { Direct: route.direct, Via: route.via.map((id) => ({ Id: id, Name: graph.groups.get(id)?.name ?? id })) };
}

function sortName(m: EffectiveMember): string {
  return m.UserName ?? m.DisplayName;
}
