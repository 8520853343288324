import { AppError } from '../errors/app-error';
import type { ErrorCode } from '../errors/catalog';

// Recognising storage failures that map to client errors, across both engines and the driver
// adapters (which report unique violations as P2002 with the target in meta or the message).
/** A unique-index violation, optionally of an index naming `field`. */
export function isUniqueViolation(e: unknown, field?: string): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const err = e as { code?: string; message?: string; meta?: Record<string, unknown> };
  if (err.code !== 'P2002') return false;
  if (!field) return true;
  const text = JSON.stringify(err.meta ?? {}) + (err.message ?? '');
  return text.toLowerCase().includes(field.toLowerCase());
}

/** What a unique violation becomes: a catalog code, or a prepared error (with field messages). */
export type UniqueConflict = ErrorCode | AppError;

const toError = (c: UniqueConflict): AppError => (typeof c === 'string' ? new AppError(c) : c);

/**
 * Runs `work`; a unique-index violation becomes `conflict` (or, when the violated index names one of
 * `byColumn`'s columns, that column's error), anything else passes through. The checks before a
 * write give the friendly answer; this catches the concurrent write that slipped past them.
 */
export async function onUniqueViolation<T>(
  work: () => Promise<T>,
  conflict: UniqueConflict,
  byColumn: Readonly<Record<string, UniqueConflict>> = {},
): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    const column = Object.keys(byColumn).find((c) => isUniqueViolation(e, c));
    throw toError(column === undefined ? conflict : byColumn[column]);
  }
}

/** Runs an insert that another instance may have made first; a unique violation counts as done. */
export async function unlessAlreadyInserted(insert: () => Promise<unknown>): Promise<void> {
  try {
    await insert();
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
  }
}
