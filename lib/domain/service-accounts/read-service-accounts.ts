import { requirePermission } from '../../authz/require-permission';
import type { RealmPrisma } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { readPage, sortEntry, type Page, type PageQuery } from '../paging';
import { requireServiceAccountRow, serviceAccountColumns, type ServiceAccountRow } from './repo';

// GET /api/service-account and GET /api/service-account/{id} (spec 4.7; paging and search spec 4.9).

type Order = RealmPrisma.ServiceAccountOrderByWithRelationInput;
const SORTS: Record<string, (dir: 'asc' | 'desc') => Order> = {
  name: (dir) => ({ nameNormalized: dir }),
  createdat: (dir) => ({ createdAt: dir }),
};

/** `search` matches part of the name, case-insensitively; sortBy name (default) or createdAt. */
export async function listServiceAccounts(ctx: DomainContext, q: PageQuery): Promise<Page<ServiceAccountRow>> {
  await requirePermission(ctx, 'service-account:read');
  const db = await realmDb(ctx.realm);
  const term = q.search?.trim().toLowerCase();
  const where: RealmPrisma.ServiceAccountWhereInput = term ? { nameNormalized: { contains: term } } : {};
  const sort = sortEntry(SORTS, q.sortBy, 'name');
  return readPage(
    q,
    () => db.serviceAccount.count({ where }),
    (window) =>
      db.serviceAccount.findMany({
        where,
        select: serviceAccountColumns,
        orderBy: [sort(q.sortDescending ? 'desc' : 'asc'), { id: 'asc' }],
        ...window,
      }),
  );
}

export async function getServiceAccount(ctx: DomainContext, id: string): Promise<ServiceAccountRow> {
  await requirePermission(ctx, 'service-account:read');
  return requireServiceAccountRow(await realmDb(ctx.realm), id);
}
