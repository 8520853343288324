import { requirePermission } from '../../authz/require-permission';
import type { RealmPrisma } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { readPage, sortEntry, type Page, type PageQuery } from '../paging';
import { groupColumns, requireGroupRow, type GroupRow } from './repo';

// GET /api/group and GET /api/group/{id} (spec 4.7 "Groups"; paging and search spec 4.9).

type Order = RealmPrisma.GroupOrderByWithRelationInput;
const SORTS: Record<string, (dir: 'asc' | 'desc') => Order> = {
  name: (dir) => ({ nameNormalized: dir }),
  createdat: (dir) => ({ createdAt: dir }),
};

export async function listGroups(ctx: DomainContext, q: PageQuery): Promise<Page<GroupRow>> {
  await requirePermission(ctx, 'authorization-group:read');
  const db = await realmDb(ctx.realm);
  const term = q.search?.trim().toLowerCase();
  const where: RealmPrisma.GroupWhereInput = term ? { nameNormalized: { contains: term } } : {};
  const sort = sortEntry(SORTS, q.sortBy, 'name');
  return readPage(
    q,
    () => db.group.count({ where }),
    (window) =>
      db.group.findMany({
        where,
        select: groupColumns,
        orderBy: [sort(q.sortDescending ? 'desc' : 'asc'), { id: 'asc' }],
        ...window,
      }),
  );
}

export async function getGroup(ctx: DomainContext, id: string): Promise<GroupRow> {
  await requirePermission(ctx, 'authorization-group:read');
  return requireGroupRow(await realmDb(ctx.realm), id);
}
