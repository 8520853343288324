import type { RealmPrisma, RealmTx } from '../../db/types';
import { AppError, validationError } from '../../errors/app-error';
import { unknownApps } from './bound-to';

// Reads and reference checks of groups (spec 4.7 "Groups").

export const groupColumns = {
  id: true,
  name: true,
  description: true,
  boundTo: true,
  isBuiltIn: true,
  createdAt: true,
  updatedAt: true,
  roles: { select: { roleId: true } },
  parents: { select: { parentId: true } },
  children: { select: { childId: true } },
  _count: { select: { members: { where: { user: { deletedAt: null } } } } },
} as const satisfies RealmPrisma.GroupSelect;

export type GroupRow = RealmPrisma.GroupGetPayload<{ select: typeof groupColumns }>;

export async function requireGroupRow(db: RealmTx, id: string): Promise<GroupRow> {
  const row = await db.group.findUnique({ where: { id }, select: groupColumns });
  if (!row) throw new AppError('Group.NotFound');
  return row;
}

/** 400 with the offending field when a role id, parent id or App slug names nothing. */
export async function assertReferencesExist(tx: RealmTx, refs: { roleIds: string[]; parentIds: string[]; boundTo?: string[] }): Promise<void> {
  // One after another: this runs inside the writing transaction, on its one connection.
  const roles = refs.roleIds.length ? await tx.permissionRole.findMany({ where: { id: { in: refs.roleIds } }, select: { id: true } }) : [];
  const parents = refs.parentIds.length ? await tx.group.findMany({ where: { id: { in: refs.parentIds } }, select: { id: true } }) : [];
  const apps = refs.boundTo ? await tx.app.findMany({ select: { slug: true } }) : [];
  const errors: Record<string, string[]> = {};
  const missing = (wanted: string[], found: { id: string }[]) => wanted.filter((id) => !found.some((f) => f.id === id));
  const badRoles = missing(refs.roleIds, roles);
  const badParents = missing(refs.parentIds, parents);
  const badApps = refs.boundTo
    ? unknownApps(
        refs.boundTo,
        apps.map((a) => a.slug),
      )
    : [];
  if (badRoles.length) errors.RoleIds = badRoles.map((id) => `No role has the id ${id}.`);
  if (badParents.length) errors.ParentGroupIds = badParents.map((id) => `No group has the id ${id}.`);
  if (badApps.length) errors.BoundTo = badApps.map((s) => `No application has the slug ${s}.`);
  if (Object.keys(errors).length) throw validationError(errors, 'A referenced role, group or application does not exist.');
}
