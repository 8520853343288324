import { requirePermission } from '../../authz/require-permission';
import type { RealmPrisma } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { readPage, sortEntry, type Page } from '../paging';
import { requireScopeRow, scopeColumns, type ScopeRow } from './repo';
import type { ScopeListQuery } from './schemas';

// GET /api/admin/oauth/scopes and GET /api/admin/oauth/scopes/{id} (spec 4.7; paging 4.9).

type Order = RealmPrisma.OAuthScopeOrderByWithRelationInput;
const SORTS: Record<string, (dir: 'asc' | 'desc') => Order[]> = {
  name: (dir) => [{ name: dir }],
  createdat: (dir) => [{ createdAt: dir }],
  builtin: (dir) => [{ isBuiltIn: dir }, { name: 'asc' }],
};

/** Scope names are case-sensitive ASCII; the term is matched as typed and lower-cased. */
function searchWhere(search: string | undefined): RealmPrisma.OAuthScopeWhereInput {
  const raw = search?.trim();
  if (!raw) return {};
  const variants = [...new Set([raw, raw.toLowerCase()])];
  return { OR: variants.flatMap((v) => [{ name: { contains: v } }, { displayName: { contains: v } }]) };
}

export async function listScopes(ctx: DomainContext, q: ScopeListQuery): Promise<Page<ScopeRow>> {
  await requirePermission(ctx, 'oauth-scope:read');
  const db = await realmDb(ctx.realm);
  const where = searchWhere(q.search);
  const sort = sortEntry(SORTS, q.sortBy, 'name');
  return readPage(
    q,
    () => db.oAuthScope.count({ where }),
    (window) =>
      db.oAuthScope.findMany({
        where,
        select: scopeColumns,
        orderBy: [...sort(q.sortDescending ? 'desc' : 'asc'), { id: 'asc' }],
        ...window,
      }),
  );
}

export async function getScope(ctx: DomainContext, id: string): Promise<ScopeRow> {
  await requirePermission(ctx, 'oauth-scope:read');
  return requireScopeRow(await realmDb(ctx.realm), id);
}
