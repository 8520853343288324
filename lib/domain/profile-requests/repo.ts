import type { RealmPrisma, RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { currentFields, parseChanges } from './changes';
import { CHANGE_REQUEST_STATUSES, PENDING_STATUSES, type ChangeRequestDto, type ChangeRequestStatus } from './schemas';

// Storage of UserChangeRequest rows (spec 3.4) and their answer shape.

export const requestColumns = {
  id: true,
  userId: true,
  status: true,
  changes: true,
  reason: true,
  decidedAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies RealmPrisma.UserChangeRequestSelect;

export const requestWithUserColumns = {
  ...requestColumns,
  user: { select: { userName: true, firstname: true, lastname: true, acronym: true, email: true } },
} as const satisfies RealmPrisma.UserChangeRequestSelect;

type RequestRow = RealmPrisma.UserChangeRequestGetPayload<{ select: typeof requestColumns }>;
type RequestWithUserRow = RealmPrisma.UserChangeRequestGetPayload<{ select: typeof requestWithUserColumns }>;

function statusOf(s: string): ChangeRequestStatus {
  return (CHANGE_REQUEST_STATUSES as readonly string[]).includes(s) ? (s as ChangeRequestStatus) : 'Cancelled';
}

/** The user's own view: what they asked for and where it stands. */
export function toRequestDto(row: RequestRow): ChangeRequestDto {
  return {
    Id: row.id,
    UserId: row.userId,
    Status: statusOf(row.status),
    Changes: parseChanges(row.changes),
    Reason: row.reason,
    DecidedAt: row.decidedAt,
    CreatedAt: row.createdAt,
    UpdatedAt: row.updatedAt,
  };
}

/** The administrator's view: the same, with the user's name and current values beside the requested ones. */
export function toAdminRequestDto(row: RequestWithUserRow): ChangeRequestDto {
  return { ...toRequestDto(row), UserName: row.user.userName, Current: currentFields(row.user) };
}

/**
 * A no-op write on the user's row, first thing in a transaction: PostgreSQL takes the row lock and
 * SQLite its write lock, so two concurrent submissions of one user cannot both see "no open
 * request" and both insert one.
 */
export async function lockUserRow(tx: RealmTx, userId: string): Promise<void> {
  await tx.$executeRaw`UPDATE "User" SET "updatedAt" = "updatedAt" WHERE "id" = ${userId}`;
}

export function findPendingRequest(tx: RealmTx, userId: string): Promise<RequestRow | null> {
  return tx.userChangeRequest.findFirst({ where: { userId, status: { in: PENDING_STATUSES } }, orderBy: { createdAt: 'desc' }, select: requestColumns });
}

export async function requireRequestWithUser(tx: RealmTx, id: string): Promise<RequestWithUserRow> {
  const row = await tx.userChangeRequest.findUnique({ where: { id }, select: requestWithUserColumns });
  if (!row) throw new AppError('ChangeRequest.NotFound');
  return row;
}

/** Retires the mailed new-address links of a user's requests (cancelled, or superseded). */
export async function retireProfileEmailLinks(tx: RealmTx, userId: string): Promise<void> {
  await tx.oneTimeSecret.updateMany({ where: { purpose: 'profile-email', userId, usedAt: null }, data: { usedAt: new Date() } });
}
