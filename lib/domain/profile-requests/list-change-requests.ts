import { requirePermission } from '../../authz/require-permission';
import type { RealmPrisma } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { mapPage, readPage, sortEntry, type Page } from '../paging';
import { userSearchWhere } from '../users/repo';
import { requestWithUserColumns, toAdminRequestDto } from './repo';
import type { ChangeRequestDto, ChangeRequestListQuery } from './schemas';

// GET /api/admin/change-requests (spec 4.7, user:write): by default the requests waiting for a
// decision, oldest first (a queue); `status` picks others; `search` matches the user's name or
// address. Each item carries the user's current values beside the requested ones.
const SORTS = {
  createdat: 'createdAt',
  updatedat: 'updatedAt',
  decidedat: 'decidedAt',
} as const satisfies Record<string, keyof RealmPrisma.UserChangeRequestOrderByWithRelationInput>;

export async function listChangeRequests(ctx: DomainContext, q: ChangeRequestListQuery): Promise<Page<ChangeRequestDto>> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  const where: RealmPrisma.UserChangeRequestWhereInput = { status: { in: q.status }, ...(q.search?.trim() ? { user: userSearchWhere(q.search) } : {}) };
  const column = sortEntry(SORTS, q.sortBy, 'createdat');
  const direction = q.sortDescending ? 'desc' : 'asc';
  const page = await readPage(
    q,
    () => db.userChangeRequest.count({ where }),
    (window) =>
      db.userChangeRequest.findMany({
        where,
        orderBy: [
          column === 'createdAt' ? { createdAt: direction } : { [column]: { sort: direction, nulls: 'last' } },
          { createdAt: direction },
          { id: 'asc' },
        ],
        ...window,
        select: requestWithUserColumns,
      }),
  );
  return mapPage(page, toAdminRequestDto);
}
