import { requirePermission } from '../../authz/require-permission';
import type { RealmPrisma } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { readPage, sortEntry, type Page } from '../paging';
import { apiColumns, requireApiRow, type ApiRow } from './repo';
import type { ApiListQuery } from './schemas';

// GET /api/admin/oauth/apis and GET /api/admin/oauth/apis/{id} (spec 4.7; paging 4.9).

type Order = RealmPrisma.OAuthApiOrderByWithRelationInput;
const SORTS: Record<string, (dir: 'asc' | 'desc') => Order[]> = {
  name: (dir) => [{ nameNormalized: dir }],
  audience: (dir) => [{ audience: dir }],
  createdat: (dir) => [{ createdAt: dir }],
};

function searchWhere(search: string | undefined): RealmPrisma.OAuthApiWhereInput {
  const raw = search?.trim();
  if (!raw) return {};
  const lower = raw.toLowerCase();
  return { OR: [{ nameNormalized: { contains: lower } }, ...[...new Set([raw, lower])].map((v) => ({ audience: { contains: v } }))] };
}

export async function listApis(ctx: DomainContext, q: ApiListQuery): Promise<Page<ApiRow>> {
  await requirePermission(ctx, 'oauth-api:read');
  const db = await realmDb(ctx.realm);
  const where = searchWhere(q.search);
  const sort = sortEntry(SORTS, q.sortBy, 'name');
  return readPage(
    q,
    () => db.oAuthApi.count({ where }),
    (window) =>
      db.oAuthApi.findMany({
        where,
        select: apiColumns,
        orderBy: [...sort(q.sortDescending ? 'desc' : 'asc'), { id: 'asc' }],
        ...window,
      }),
  );
}

export async function getApi(ctx: DomainContext, id: string): Promise<ApiRow> {
  await requirePermission(ctx, 'oauth-api:read');
  return requireApiRow(await realmDb(ctx.realm), id);
}
