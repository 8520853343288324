import { requirePermission } from '../../authz/require-permission';
import { realmDb, type DomainContext } from '../../realm/context';
import { pageOfAll, type Page, type PageQuery } from '../paging';
import { readProviderRows, requireProviderRow, type ProviderRow } from './repo';

// GET /api/admin/login-providers and GET /api/admin/login-providers/{id} (spec 4.7, paging 4.9). A
// realm has a handful of providers, so the page is cut from the whole list in memory: built-in
// first, then by name (sortBy name|flavor|createdAt); search matches the name, flavor and slug.
const SORTS: Record<string, (a: ProviderRow, b: ProviderRow) => number> = {
  name: (a, b) => a.name.localeCompare(b.name),
  flavor: (a, b) => a.flavor.localeCompare(b.flavor) || a.name.localeCompare(b.name),
  createdat: (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
};

export async function listLoginProviders(ctx: DomainContext, q: PageQuery): Promise<Page<ProviderRow>> {
  await requirePermission(ctx, 'login-provider:read');
  const needle = q.search?.trim().toLowerCase();
  let rows = await readProviderRows(await realmDb(ctx.realm));
  if (needle) rows = rows.filter((r) => [r.name, r.flavor, r.slug ?? ''].some((v) => v.toLowerCase().includes(needle)));
  const key = q.sortBy?.toLowerCase();
  if (key && Object.hasOwn(SORTS, key)) {
    const compare = SORTS[key];
    rows = [...rows].sort((a, b) => (q.sortDescending ? -compare(a, b) : compare(a, b)));
  }
  return pageOfAll(rows, q);
}

export async function getLoginProvider(ctx: DomainContext, id: string): Promise<ProviderRow> {
  await requirePermission(ctx, 'login-provider:read');
  return requireProviderRow(await realmDb(ctx.realm), id);
}
