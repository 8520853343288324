// Column values as the drivers answer them to the few statements run beside Prisma
// (claims-user-sql.ts, lib/domain/sessions/session-sql.ts): SQLite keeps dates as ISO text and booleans as integers
// (read as BigInt: Prisma's adapter turns safe integers on), PostgreSQL answers the epoch
// milliseconds the statements select and real booleans.

/** A date column: ISO text (SQLite) or epoch milliseconds (PostgreSQL, `epochMillis`); null stays null. */
export const dateValue = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(typeof v === 'string' ? v : Number(v)));

/** A boolean column: true, 1 or 1n. */
export const booleanValue = (v: unknown): boolean => v === true || v === 1 || v === 1n;

/** A PostgreSQL timestamp column as epoch milliseconds: an expression, to name or nest as needed. */
export const epochMillisOf = (column: string, table?: string): string => `(extract(epoch from ${table ? `${table}.` : ''}"${column}") * 1000)::float8`;

/** A PostgreSQL select of a timestamp column as epoch milliseconds, under the column's own name. */
export const epochMillis = (column: string, table?: string): string => `${epochMillisOf(column, table)} AS "${column}"`;

/** A date written to SQLite as Prisma's adapter writes it: ISO 8601 with "+00:00". */
export const sqliteDateText = (d: Date | null | undefined): string | null => (d ? d.toISOString().replace('Z', '+00:00') : null);

/** A date written to a PostgreSQL `timestamp(3)` (UTC wall time, as Prisma's adapter writes it); cast the parameter `::timestamp(3)`. */
export const pgTimestampText = (d: Date | null | undefined): string | null => (d ? d.toISOString().replace('T', ' ').replace('Z', '') : null);

/** A boolean written to SQLite (an integer, as Prisma stores it). */
export const sqliteBoolean = (b: boolean): number => (b ? 1 : 0);
