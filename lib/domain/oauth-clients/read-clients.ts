import { requirePermission } from '../../authz/require-permission';
import type { RealmPrisma } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { readPage, sortEntry, type Page } from '../paging';
import { clientColumns, requireClientRow, type ClientRow } from './repo';
import type { ClientListQuery } from './schemas';

// GET /api/admin/oauth/clients and GET /api/admin/oauth/clients/{id} (spec 4.7; paging 4.9). The
// list includes the clients of service-account credentials, marked by ServiceAccountId.

type Order = RealmPrisma.OAuthClientOrderByWithRelationInput;
const SORTS: Record<string, (dir: 'asc' | 'desc') => Order[]> = {
  displayname: (dir) => [{ displayName: dir }],
  clientid: (dir) => [{ clientId: dir }],
  createdat: (dir) => [{ createdAt: dir }],
  clienttype: (dir) => [{ clientType: dir }, { displayName: dir }],
};

/**
 * There are no lower-case copies of the client id and name: the term is matched as typed,
 * lower-cased and capitalised (PostgreSQL LIKE is case-sensitive, SQLite's is not for ASCII).
 */
function searchWhere(search: string | undefined): RealmPrisma.OAuthClientWhereInput {
  const raw = search?.trim();
  if (!raw) return {};
  const lower = raw.toLowerCase();
  const variants = [...new Set([raw, lower, lower.charAt(0).toUpperCase() + lower.slice(1)])];
  return { OR: variants.flatMap((v) => [{ clientId: { contains: v } }, { displayName: { contains: v } }]) };
}

export async function listClients(ctx: DomainContext, q: ClientListQuery): Promise<Page<ClientRow>> {
  await requirePermission(ctx, 'oauth-client:read');
  const db = await realmDb(ctx.realm);
  const where: RealmPrisma.OAuthClientWhereInput = { ...searchWhere(q.search), ...(q.clientType ? { clientType: q.clientType } : {}) };
  const sort = sortEntry(SORTS, q.sortBy, 'displayname');
  return readPage(
    q,
    () => db.oAuthClient.count({ where }),
    (window) =>
      db.oAuthClient.findMany({
        where,
        select: clientColumns,
        orderBy: [...sort(q.sortDescending ? 'desc' : 'asc'), { id: 'asc' }],
        ...window,
      }),
  );
}

export async function getClient(ctx: DomainContext, id: string): Promise<ClientRow> {
  await requirePermission(ctx, 'oauth-client:read');
  return requireClientRow(await realmDb(ctx.realm), id);
}
