import { requirePermission } from '../../authz/require-permission';
import type { RealmPrisma } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { readPage, sortEntry, type Page } from '../paging';
import { requireRoleRow, roleColumns, type RoleRow } from './repo';
import type { RoleListQuery } from './schemas';

// GET /api/role and GET /api/role/{id} (spec 4.7 "Roles"; paging and search spec 4.9).

type Order = RealmPrisma.PermissionRoleOrderByWithRelationInput;
const SORTS: Record<string, (dir: 'asc' | 'desc') => Order[]> = {
  name: (dir) => [{ nameNormalized: dir }],
  createdat: (dir) => [{ createdAt: dir }],
  app: (dir) => [{ app: { slug: dir } }, { nameNormalized: dir }],
};

export async function listRoles(ctx: DomainContext, q: RoleListQuery): Promise<Page<RoleRow>> {
  await requirePermission(ctx, 'permission-role:read');
  const db = await realmDb(ctx.realm);
  const term = q.search?.trim().toLowerCase();
  const where: RealmPrisma.PermissionRoleWhereInput = {
    ...(q.appId ? { appId: q.appId } : {}),
    ...(term ? { nameNormalized: { contains: term } } : {}),
  };
  const sort = sortEntry(SORTS, q.sortBy, 'name');
  return readPage(
    q,
    () => db.permissionRole.count({ where }),
    (window) =>
      db.permissionRole.findMany({
        where,
        select: roleColumns,
        orderBy: [...sort(q.sortDescending ? 'desc' : 'asc'), { id: 'asc' }],
        ...window,
      }),
  );
}

export async function getRole(ctx: DomainContext, id: string): Promise<RoleRow> {
  await requirePermission(ctx, 'permission-role:read');
  return requireRoleRow(await realmDb(ctx.realm), id);
}
