import { requirePermission, requireUser } from '../../authz/require-permission';
import type { RealmPrisma, RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { realmDb, type DomainContext } from '../../realm/context';
import { readPage, sortEntry, type Page, type PageQuery } from '../paging';

// Reads of spec 4.7 "Applications": the lookup any signed-in user may call, the list (app:read,
// without Settings) and one App (app:read, with the sparse Settings).

const appColumns = {
  id: true,
  slug: true,
  displayName: true,
  description: true,
  isBuiltIn: true,
  permissionCatalog: true,
  settings: true,
  createdAt: true,
  updatedAt: true,
  _count: { select: { roles: true } },
} as const satisfies RealmPrisma.AppSelect;
export type AppRow = RealmPrisma.AppGetPayload<{ select: typeof appColumns }>;

export async function lookupApps(ctx: DomainContext): Promise<{ Id: string; Slug: string; DisplayName: string }[]> {
  requireUser(ctx);
  const db = await realmDb(ctx.realm);
  const rows = await db.app.findMany({ select: { id: true, slug: true, displayName: true }, orderBy: { slug: 'asc' } });
  return rows.map((a) => ({ Id: a.id, Slug: a.slug, DisplayName: a.displayName }));
}

const SORTS: Record<string, (dir: 'asc' | 'desc') => RealmPrisma.AppOrderByWithRelationInput> = {
  slug: (dir) => ({ slug: dir }),
  displayname: (dir) => ({ displayName: dir }),
  createdat: (dir) => ({ createdAt: dir }),
};

export async function listApps(ctx: DomainContext, q: PageQuery): Promise<Page<AppRow>> {
  await requirePermission(ctx, 'app:read');
  const db = await realmDb(ctx.realm);
  // Slugs are lower-case by rule; display names are matched as typed (no lower-case copy exists).
  const raw = q.search?.trim();
  const where: RealmPrisma.AppWhereInput = raw ? { OR: [{ slug: { contains: raw.toLowerCase() } }, { displayName: { contains: raw } }] } : {};
  const sort = sortEntry(SORTS, q.sortBy, 'slug');
  return readPage(
    q,
    () => db.app.count({ where }),
    (window) => db.app.findMany({ where, select: appColumns, orderBy: [sort(q.sortDescending ? 'desc' : 'asc'), { id: 'asc' }], ...window }),
  );
}

export async function getApp(ctx: DomainContext, idOrSlug: string): Promise<AppRow> {
  await requirePermission(ctx, 'app:read');
  return requireAppRow(await realmDb(ctx.realm), idOrSlug);
}

/** One App by id or slug (404 App.NotFound), also inside a transaction. */
export async function requireAppRow(db: RealmTx, idOrSlug: string): Promise<AppRow> {
  const row = await db.app.findFirst({ where: { OR: [{ id: idOrSlug }, { slug: idOrSlug.toLowerCase() }] }, select: appColumns });
  if (!row) throw new AppError('App.NotFound');
  return row;
}
