import type { RealmPrisma, RealmTx } from '../../db/types';
import { AppError, validationError } from '../../errors/app-error';
import { parseCatalog } from '../apps/catalog-json';
import { toJsonList } from '../../db/json-list';
import { normalizePermissions, permissionsOutsideCatalog } from './catalog-check';

// Reads and checks of permission roles (spec 4.7 "Roles").

export const roleColumns = {
  id: true,
  name: true,
  description: true,
  appId: true,
  permissions: true,
  isBuiltIn: true,
  createdAt: true,
  updatedAt: true,
  app: { select: { slug: true } },
  groups: { select: { groupId: true } },
} as const satisfies RealmPrisma.PermissionRoleSelect;

export type RoleRow = RealmPrisma.PermissionRoleGetPayload<{ select: typeof roleColumns }>;

export async function requireRoleRow(db: RealmTx, id: string): Promise<RoleRow> {
  const row = await db.permissionRole.findUnique({ where: { id }, select: roleColumns });
  if (!row) throw new AppError('Role.NotFound');
  return row;
}

/**
 * The App named by AppId (400 on AppId when there is none) and the role's permission set, checked
 * against that App's catalog: 400 Role.PermissionNotInCatalog naming every permission outside it.
 */
export async function checkedPermissions(
  tx: RealmTx,
  appId: string,
  permissions: readonly string[],
): Promise<{ appSlug: string; json: string; list: string[] }> {
  const app = await tx.app.findUnique({ where: { id: appId }, select: { slug: true, permissionCatalog: true } });
  if (!app) throw validationError({ AppId: ['No application has this id.'] });
  const list = normalizePermissions(permissions);
  const bad = permissionsOutsideCatalog(list, parseCatalog(app.permissionCatalog));
  if (bad.length) {
    throw new AppError('Role.PermissionNotInCatalog', {
      detail: `Not in the catalog of ${app.slug}: ${bad.join(', ')}.`,
      errors: { Permissions: bad.map((p) => `${p} is not in the catalog of ${app.slug}.`) },
      extensions: { invalidPermissions: bad },
    });
  }
  return { appSlug: app.slug, json: toJsonList(list), list };
}
