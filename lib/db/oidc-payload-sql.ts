import type BetterSqlite3 from 'better-sqlite3';
import type { Pool } from 'pg';
import { driverOf, sqliteStatement } from './driver-handle';
import { readThrough, type ReadPoint } from './sqlite-read-cache';
import { runWhenFree } from './sqlite-transaction-gate';
import { commitGrouped } from './sqlite-group-commit';
import { epochMillis, pgTimestampText, sqliteDateText } from './sql-values';
import type { RealmDb } from './types';

// The OAuth engine's storage (OidcPayload) in plain prepared statements on the realm's own driver.
// A refresh-token exchange makes five of these and an introspection two; through Prisma's query
// interpreter each cost several times its SQL (benchmarks/README.md, "where the time goes"). The
// rows are the ones Prisma reads and writes elsewhere (purge, consent, remembered clients): dates
// are stored exactly as Prisma's adapters store them, ISO 8601 with "+00:00" on SQLite and UTC
// `timestamp(3)` on PostgreSQL. Statements run outside any transaction, as the engine's calls do.

export type StoredPayload = { payload: string; expiresAt: Date | null; consumedAt: Date | null };

export type PayloadWrite = {
  model: string;
  id: string;
  payload: string;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  accountId: string | null;
  clientId: string | null;
  expiresAt: Date | null;
};

export interface OidcPayloadSql {
  /**
   * Whether the writes run in the order they are made, each settling once committed (SQLite's one
   * connection and its group commit): a caller may then make the next before the last committed.
   */
  readonly writesInCallOrder: boolean;
  /** By id; `point` names the request, so that its reads share one freshness check (sqlite-read-cache.ts). */
  find(model: string, id: string, point?: ReadPoint): Promise<StoredPayload | null>;
  findBy(model: string, column: 'uid' | 'userCode', value: string): Promise<StoredPayload | null>;
  upsert(row: PayloadWrite, now: Date): Promise<void>;
  consume(model: string, id: string, at: Date): Promise<void>;
  destroy(model: string, id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

const COLUMNS = ['model', 'id', 'payload', 'grantId', 'userCode', 'uid', 'accountId', 'clientId', 'expiresAt', 'createdAt'] as const;
const UPDATED = ['payload', 'grantId', 'userCode', 'uid', 'accountId', 'clientId', 'expiresAt'] as const;
const quoted = (c: string) => `"${c}"`;

const writeValues = (row: PayloadWrite) => [row.model, row.id, row.payload, row.grantId, row.userCode, row.uid, row.accountId, row.clientId];

// ---- SQLite -------------------------------------------------------------------------------------

const sqliteDate = sqliteDateText;
const fromSqliteDate = (v: unknown) => (typeof v === 'string' ? new Date(v) : null);

const SQLITE = {
  find: 'SELECT "payload", "expiresAt", "consumedAt" FROM "OidcPayload" WHERE "model" = ? AND "id" = ?',
  findByUid: 'SELECT "payload", "expiresAt", "consumedAt" FROM "OidcPayload" WHERE "model" = ? AND "uid" = ? LIMIT 1',
  findByUserCode: 'SELECT "payload", "expiresAt", "consumedAt" FROM "OidcPayload" WHERE "model" = ? AND "userCode" = ? LIMIT 1',
  upsert:
    `INSERT INTO "OidcPayload" (${COLUMNS.map(quoted).join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')}) ` +
    `ON CONFLICT ("model", "id") DO UPDATE SET ${UPDATED.map((c) => `${quoted(c)} = excluded.${quoted(c)}`).join(', ')}`,
  consume: 'UPDATE "OidcPayload" SET "consumedAt" = ? WHERE "model" = ? AND "id" = ?',
  destroy: 'DELETE FROM "OidcPayload" WHERE "model" = ? AND "id" = ?',
  revokeByGrantId: 'DELETE FROM "OidcPayload" WHERE "grantId" = ?',
};

function sqliteRow(row: unknown): StoredPayload | null {
  if (!row) return null;
  const r = row as { payload: string; expiresAt: unknown; consumedAt: unknown };
  return { payload: r.payload, expiresAt: fromSqliteDate(r.expiresAt), consumedAt: fromSqliteDate(r.consumedAt) };
}

const payloadSize = (row: StoredPayload) => 2 * row.payload.length + 96;

function sqliteStore(db: BetterSqlite3.Database): OidcPayloadSql {
  // better-sqlite3 is synchronous: each method settles at once, as Prisma's adapter does, unless
  // another request's transaction holds the connection (sqlite-transaction-gate.ts).
  const run = <T>(work: () => T): Promise<T> => runWhenFree(db, work);
  const write = (work: () => void): Promise<void> => commitGrouped(db, work);
  return {
    writesInCallOrder: true,
    // Found by id, a row is answered from the read cache while no write can have changed it.
    find: (model, id, point) =>
      run(() => readThrough(db, 'OidcPayload', [model, id], payloadSize, () => sqliteRow(sqliteStatement(db, SQLITE.find).get(model, id)), point)),
    findBy: (model, column, value) => run(() => sqliteRow(sqliteStatement(db, column === 'uid' ? SQLITE.findByUid : SQLITE.findByUserCode).get(model, value))),
    // Writes share their commit with the others of the same turn (sqlite-group-commit.ts).
    upsert: (row, now) => write(() => void sqliteStatement(db, SQLITE.upsert).run(...writeValues(row), sqliteDate(row.expiresAt), sqliteDate(now))),
    consume: (model, id, at) => write(() => void sqliteStatement(db, SQLITE.consume).run(sqliteDate(at), model, id)),
    destroy: (model, id) => write(() => void sqliteStatement(db, SQLITE.destroy).run(model, id)),
    revokeByGrantId: (grantId) => write(() => void sqliteStatement(db, SQLITE.revokeByGrantId).run(grantId)),
  };
}

// ---- PostgreSQL ---------------------------------------------------------------------------------

const pgDate = pgTimestampText;
/** Dates are read back as epoch milliseconds: no time-zone guess by the driver's timestamp parser. */
const PG_SELECT = `SELECT "payload", ${epochMillis('expiresAt')}, ${epochMillis('consumedAt')} FROM "OidcPayload"`;

const PG = {
  find: { name: 'gh-oidc-find', text: `${PG_SELECT} WHERE "model" = $1 AND "id" = $2` },
  findByUid: { name: 'gh-oidc-find-uid', text: `${PG_SELECT} WHERE "model" = $1 AND "uid" = $2 LIMIT 1` },
  findByUserCode: { name: 'gh-oidc-find-user-code', text: `${PG_SELECT} WHERE "model" = $1 AND "userCode" = $2 LIMIT 1` },
  upsert: {
    name: 'gh-oidc-upsert',
    text:
      `INSERT INTO "OidcPayload" (${COLUMNS.map(quoted).join(', ')}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::timestamp(3), $10::timestamp(3)) ` +
      `ON CONFLICT ("model", "id") DO UPDATE SET ${UPDATED.map((c) => `${quoted(c)} = excluded.${quoted(c)}`).join(', ')}`,
  },
  consume: { name: 'gh-oidc-consume', text: 'UPDATE "OidcPayload" SET "consumedAt" = $1::timestamp(3) WHERE "model" = $2 AND "id" = $3' },
  destroy: { name: 'gh-oidc-destroy', text: 'DELETE FROM "OidcPayload" WHERE "model" = $1 AND "id" = $2' },
  revokeByGrantId: { name: 'gh-oidc-revoke-grant', text: 'DELETE FROM "OidcPayload" WHERE "grantId" = $1' },
};

function pgRow(rows: { payload: string; expiresAt: number | null; consumedAt: number | null }[]): StoredPayload | null {
  const r = rows[0];
  if (!r) return null;
  return {
    payload: r.payload,
    expiresAt: r.expiresAt === null ? null : new Date(r.expiresAt),
    consumedAt: r.consumedAt === null ? null : new Date(r.consumedAt),
  };
}

function pgStore(pool: Pool): OidcPayloadSql {
  const query = async (q: { name: string; text: string }, values: unknown[]) => (await pool.query({ ...q, values })).rows;
  return {
    // A pool: two writes made at once may run on two connections, in either order.
    writesInCallOrder: false,
    find: async (model, id) => pgRow(await query(PG.find, [model, id])),
    findBy: async (model, column, value) => pgRow(await query(column === 'uid' ? PG.findByUid : PG.findByUserCode, [model, value])),
    upsert: async (row, now) => void (await query(PG.upsert, [...writeValues(row), pgDate(row.expiresAt), pgDate(now)])),
    consume: async (model, id, at) => void (await query(PG.consume, [pgDate(at), model, id])),
    destroy: async (model, id) => void (await query(PG.destroy, [model, id])),
    revokeByGrantId: async (grantId) => void (await query(PG.revokeByGrantId, [grantId])),
  };
}

// ---- Through Prisma: a client whose driver is unknown (not built by the realm pool) ------------

function prismaStore(db: RealmDb): OidcPayloadSql {
  const select = { payload: true, expiresAt: true, consumedAt: true } as const;
  return {
    writesInCallOrder: false,
    find: (model, id) => db.oidcPayload.findUnique({ where: { model_id: { model, id } }, select }),
    findBy: (model, column, value) => db.oidcPayload.findFirst({ where: { model, [column]: value }, select }),
    upsert: async (row, now) => {
      const { model, id, ...rest } = row;
      await db.oidcPayload.upsert({ where: { model_id: { model, id } }, create: { ...row, createdAt: now }, update: rest });
    },
    consume: async (model, id, at) => void (await db.oidcPayload.updateMany({ where: { model, id }, data: { consumedAt: at } })),
    destroy: async (model, id) => void (await db.oidcPayload.deleteMany({ where: { model, id } })),
    revokeByGrantId: async (grantId) => void (await db.oidcPayload.deleteMany({ where: { grantId } })),
  };
}

const stores = new WeakMap<object, OidcPayloadSql>();

/** The OidcPayload statements of a realm client: on its driver once connected, else through Prisma. */
export function oidcPayloadSql(db: RealmDb): OidcPayloadSql {
  const known = stores.get(db);
  if (known) return known;
  const driver = driverOf(db);
  if (!driver) return prismaStore(db);
  const store = driver.kind === 'sqlite' ? sqliteStore(driver.db) : pgStore(driver.pool);
  stores.set(db, store);
  return store;
}
