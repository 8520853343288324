import type { RealmPrisma } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { isSortKey, mapPage, readPage, sortEntry, type Page } from '../paging';
import { authorizeInviteCodes } from './access';
import { inviteCodeColumns, requireAppId, toInviteCodeDto } from './repo';
import type { AdminInviteCodeListQuery, InviteCodeDto, InviteCodeListQuery } from './schemas';
import { inviteCodeStatusWhere } from './status';

// GET /api/app/{id}/invite-codes (one App) and GET /api/admin/invite-codes (the realm-wide
// overview, filterable by App and status). Newest first; the label is searchable.
const SORTS: Record<string, (dir: 'asc' | 'desc') => RealmPrisma.InviteCodeOrderByWithRelationInput> = {
  createdat: (dir) => ({ createdAt: dir }),
  expiresat: (dir) => ({ expiresAt: dir }),
  usedat: (dir) => ({ usedAt: dir }),
  label: (dir) => ({ label: dir }),
};

async function page(ctx: DomainContext, where: RealmPrisma.InviteCodeWhereInput, q: InviteCodeListQuery): Promise<Page<InviteCodeDto>> {
  const db = await realmDb(ctx.realm);
  const now = new Date();
  const filters: RealmPrisma.InviteCodeWhereInput[] = [where];
  if (q.status) filters.push(inviteCodeStatusWhere(q.status, now));
  const search = q.search?.trim();
  if (search) filters.push({ label: { contains: search } });
  const all = { AND: filters };
  // Without an explicit sort: newest first.
  const sort = sortEntry(SORTS, q.sortBy, 'createdat');
  const dir = isSortKey(SORTS, q.sortBy) ? (q.sortDescending ? 'desc' : 'asc') : 'desc';
  const page = await readPage(
    q,
    () => db.inviteCode.count({ where: all }),
    (window) => db.inviteCode.findMany({ where: all, select: inviteCodeColumns, orderBy: [sort(dir), { id: 'asc' }], ...window }),
  );
  return mapPage(page, (r) => toInviteCodeDto(r, now));
}

export async function listAppInviteCodes(ctx: DomainContext, appIdOrSlug: string, q: InviteCodeListQuery): Promise<Page<InviteCodeDto>> {
  await authorizeInviteCodes(ctx, 'read', appIdOrSlug);
  const appId = await requireAppId(await realmDb(ctx.realm), appIdOrSlug);
  return page(ctx, { appId }, q);
}

export async function listRealmInviteCodes(ctx: DomainContext, q: AdminInviteCodeListQuery): Promise<Page<InviteCodeDto>> {
  await authorizeInviteCodes(ctx, 'read');
  let where: RealmPrisma.InviteCodeWhereInput = {};
  if (q.appId) where = { appId: await requireAppId(await realmDb(ctx.realm), q.appId) };
  return page(ctx, where, q);
}
