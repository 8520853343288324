import { requirePermission } from '../../authz/require-permission';
import { getGlobalDb } from '../../db/global-db';
import { notFound } from '../../errors/app-error';
import { realmInclude, toRealmRecord, type RealmRecord } from '../../realm/realm-record';
import { getRealmRecordBySlug } from '../../realm/realm-store';
import type { DomainContext } from '../../realm/context';
import { mapPage, readPage, sortEntry, type Page, type PageQuery } from '../paging';

const SORTABLE = { slug: 'slug', displayname: 'displayName', createdat: 'createdAt', isactive: 'isActive' } as const;

export async function listRealms(ctx: DomainContext, q: PageQuery): Promise<Page<RealmRecord>> {
  await requirePermission(ctx, 'realm:read', 'control-plane');
  const db = await getGlobalDb();
  const term = q.search?.trim().toLowerCase();
  const where = {
    isProvisioned: true,
    ...(term
      ? { OR: [{ slug: { contains: term } }, { displayName: { contains: q.search!.trim() } }, { domains: { some: { host: { contains: term } } } }] }
      : {}),
  };
  const sortField = sortEntry(SORTABLE, q.sortBy, 'slug');
  const page = await readPage(
    q,
    () => db.realm.count({ where }),
    (window) =>
      db.realm.findMany({
        where,
        include: realmInclude,
        orderBy: [{ [sortField]: q.sortDescending ? 'desc' : 'asc' }, { id: 'asc' }],
        ...window,
      }),
  );
  return mapPage(page, toRealmRecord);
}

export async function getRealm(ctx: DomainContext, slug: string): Promise<RealmRecord> {
  await requirePermission(ctx, 'realm:read', 'control-plane');
  const realm = await getRealmRecordBySlug(slug);
  if (!realm) throw notFound();
  return realm;
}
