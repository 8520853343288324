import type { RealmPrisma, RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';

// Reads of positions and their terminals (spec 4.7 "Positions"). A terminal is an OAuth client whose
// positionId names the position.

export const positionColumns = {
  id: true,
  name: true,
  description: true,
  isActive: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies RealmPrisma.PositionSelect;

export type PositionRow = RealmPrisma.PositionGetPayload<{ select: typeof positionColumns }>;

/** Names are unique regardless of case, as group and service-account names are. */
export function normalizePositionName(name: string): string {
  return name.trim().toLowerCase();
}

export async function requirePositionRow(db: RealmTx, id: string): Promise<PositionRow> {
  const row = await db.position.findUnique({ where: { id }, select: positionColumns });
  if (!row) throw new AppError('Position.NotFound');
  return row;
}

/** The ClientIds of the position's terminals, in order. */
export async function terminalClientIds(db: RealmTx, positionId: string): Promise<string[]> {
  const rows = await db.oAuthClient.findMany({ where: { positionId }, select: { clientId: true }, orderBy: { clientId: 'asc' } });
  return rows.map((r) => r.clientId);
}

/** How many terminals each of these positions has. */
export async function terminalCounts(db: RealmTx, positionIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(positionIds.map((id) => [id, 0]));
  if (!positionIds.length) return counts;
  const rows = await db.oAuthClient.findMany({ where: { positionId: { in: [...positionIds] } }, select: { positionId: true } });
  for (const r of rows) if (r.positionId) counts.set(r.positionId, (counts.get(r.positionId) ?? 0) + 1);
  return counts;
}

/**
 * Takes the position's row lock (PostgreSQL; SQLite's write lock) by a write that changes nothing,
 * so attaching a terminal and deleting the position are serialised: whichever commits second sees
 * the other. Answers whether the position exists and is active.
 */
export async function lockPosition(tx: RealmTx, id: string): Promise<{ exists: boolean; active: boolean }> {
  const active = await tx.position.updateMany({ where: { id, isActive: true }, data: { isActive: true } });
  if (active.count) return { exists: true, active: true };
  const inactive = await tx.position.updateMany({ where: { id, isActive: false }, data: { isActive: false } });
  return { exists: inactive.count > 0, active: false };
}
