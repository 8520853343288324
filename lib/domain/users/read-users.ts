import { requirePermission, requireUser } from '../../authz/require-permission';
import type { RealmPrisma } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { readPage, sortEntry, type Page } from '../paging';
import { requireUserRow, userColumns, userSearchWhere, withHasPassword, type UserRow } from './repo';
import type { UserListQuery } from './schemas';
import { displayNameOf } from '../display-name';

// Reads of spec 4.7 "Users": the lookup any signed-in user may call (pickers), the paged admin list
// and one user.

const LOOKUP_LIMIT = 50;

export type UserLookup = { Id: string; UserName: string; DisplayName: string };

/** GET /api/user/lookup: authenticated only; active, non-deleted users, at most 50. */
export async function lookupUsers(ctx: DomainContext, search: string | undefined): Promise<UserLookup[]> {
  requireUser(ctx);
  const db = await realmDb(ctx.realm);
  const rows = await db.user.findMany({
    where: { isActive: true, deletedAt: null, ...userSearchWhere(search) },
    select: { id: true, userName: true, firstname: true, lastname: true },
    orderBy: [{ userNameNormalized: 'asc' }],
    take: LOOKUP_LIMIT,
  });
  return rows.map((u) => ({ Id: u.id, UserName: u.userName, DisplayName: displayNameOf(u) }));
}

type Order = RealmPrisma.UserOrderByWithRelationInput;
const SORTS: Record<string, (dir: 'asc' | 'desc') => Order[]> = {
  username: (dir) => [{ userNameNormalized: dir }],
  email: (dir) => [{ emailNormalized: dir }],
  createdat: (dir) => [{ createdAt: dir }],
  // Users without a name sort last on both engines (SQLite and PostgreSQL differ by default).
  lastname: (dir) => [{ lastname: { sort: dir, nulls: 'last' } }, { firstname: { sort: dir, nulls: 'last' } }, { userNameNormalized: dir }],
};

export async function listUsers(ctx: DomainContext, q: UserListQuery): Promise<Page<UserRow>> {
  await requirePermission(ctx, 'user:read');
  const db = await realmDb(ctx.realm);
  // Soft-deleted users are hidden unless asked for (spec 3.5): includeDeleted shows all, deleted only them.
  const deleted: RealmPrisma.UserWhereInput = q.deleted ? { deletedAt: { not: null } } : q.includeDeleted ? {} : { deletedAt: null };
  const where: RealmPrisma.UserWhereInput = {
    AND: [deleted, userSearchWhere(q.search), q.isActive === undefined ? {} : { isActive: q.isActive }],
  };
  const sort = sortEntry(SORTS, q.sortBy, 'username');
  return readPage(
    q,
    () => db.user.count({ where }),
    async (window) =>
      withHasPassword(
        db,
        await db.user.findMany({ where, select: userColumns, orderBy: [...sort(q.sortDescending ? 'desc' : 'asc'), { id: 'asc' }], ...window }),
      ),
  );
}

/** GET /api/user/{id}: deleted users are returned too (IsDeleted), so they can be restored. */
export async function getUser(ctx: DomainContext, id: string): Promise<UserRow> {
  await requirePermission(ctx, 'user:read');
  return requireUserRow(await realmDb(ctx.realm), id);
}
