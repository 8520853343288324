import type { RealmPrisma, RealmTx } from '../../db/types';
import { AppError, validationError } from '../../errors/app-error';

// Reads and reference checks of service accounts (spec 4.7 "Service accounts").

export const serviceAccountColumns = {
  id: true,
  name: true,
  description: true,
  isActive: true,
  createdAt: true,
  updatedAt: true,
  groups: { select: { groupId: true } },
  _count: { select: { credentials: true } },
} as const satisfies RealmPrisma.ServiceAccountSelect;

export type ServiceAccountRow = RealmPrisma.ServiceAccountGetPayload<{ select: typeof serviceAccountColumns }>;

export async function requireServiceAccountRow(db: RealmTx, id: string): Promise<ServiceAccountRow> {
  const row = await db.serviceAccount.findUnique({ where: { id }, select: serviceAccountColumns });
  if (!row) throw new AppError('ServiceAccount.NotFound');
  return row;
}

export function groupIdsOf(row: ServiceAccountRow): string[] {
  return row.groups.map((g) => g.groupId);
}

/** Names are unique regardless of case, as group names are. */
export function normalizeName(name: string): string {
  return name.trim().toLowerCase();
}

/** 400 naming every group id that names nothing (ServiceAccountGroup has no foreign key to Group). */
export async function assertGroupsExist(tx: RealmTx, groupIds: readonly string[]): Promise<void> {
  if (!groupIds.length) return;
  const found = new Set((await tx.group.findMany({ where: { id: { in: [...groupIds] } }, select: { id: true } })).map((g) => g.id));
  const missing = groupIds.filter((id) => !found.has(id));
  if (missing.length) throw validationError({ GroupIds: missing.map((id) => `No group has the id ${id}.`) }, 'A referenced group does not exist.');
}
