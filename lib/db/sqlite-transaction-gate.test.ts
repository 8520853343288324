import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as RealmDatabases from './realm-databases';
import type * as RealmPool from './realm-pool';
import type * as PayloadSql from './oidc-payload-sql';
import type * as DriverHandle from './driver-handle';
import { useTempStores } from '../testing/temp-stores';

// A realm's SQLite database is one connection, shared by every request. While one request's
// interactive transaction is open (BEGIN ... awaiting ... COMMIT or ROLLBACK), a statement another
// request sends must not run inside it: its write would be undone by that transaction's rollback
// after it was reported done, and its read would see rows that may never commit (a role granted by
// a change that then fails). The gate makes such a statement wait until the transaction ends;
// the transaction's own callback still reaches the connection, through its client or the outer one.

describe('statements from outside an open SQLite transaction', () => {
  let stores: Awaited<ReturnType<typeof useTempStores>>;
  let pool: typeof RealmPool;
  let dbs: typeof RealmDatabases;
  let payloadSql: typeof PayloadSql;
  let handle: typeof DriverHandle;
  const name = `gh_r_${randomUUID().replaceAll('-', '')}`;

  beforeAll(async () => {
    stores = await useTempStores('sqlite');
    vi.resetModules();
    pool = await import('./realm-pool');
    dbs = await import('./realm-databases');
    payloadSql = await import('./oidc-payload-sql');
    handle = await import('./driver-handle');
    await dbs.createRealmDatabase(name);
  });

  afterAll(async () => {
    await pool.closeAllRealmDbs();
    await dbs.dropRealmDatabase(name);
    await stores.restore();
  });

  const settle = () => new Promise((r) => setTimeout(r, 50));
  const user = (id: string) => ({ id, userName: id, userNameNormalized: id, email: `${id}@x.test`, emailNormalized: `${id}@x.test`, securityStamp: 's' });

  /** A transaction that writes `inside`, then waits for `release` and rolls back. */
  async function failingTransaction(inside: string) {
    const db = await pool.getRealmDb(name);
    let entered!: () => void;
    let release!: () => void;
    const open = new Promise<void>((r) => (entered = r));
    const gate = new Promise<void>((r) => (release = r));
    const done = db.$transaction(async (tx) => {
      await tx.user.create({ data: user(inside) });
      // The callback's own read through the outer client is not made to wait for itself.
      expect(await db.user.findUnique({ where: { id: inside } })).not.toBeNull();
      // So is a Gatehouse statement it makes on the outer client (it would otherwise wait for itself).
      expect(await payloadSql.oidcPayloadSql(db).find('AccessToken', 'none')).toBeNull();
      entered();
      await gate;
      throw new Error('rolled back on purpose');
    });
    await open;
    return { db, release, done };
  }

  it('a Prisma write from another request survives the rollback, and its read sees only what committed', async () => {
    const { db, release, done } = await failingTransaction('u-inside-1');
    const write = db.user.create({ data: user('u-outside-1') });
    const dirtyRead = db.user.findUnique({ where: { id: 'u-inside-1' } });
    await settle(); // both reach the connection while the transaction is still open
    release();
    await expect(done).rejects.toThrow('rolled back on purpose');
    await write;
    expect(await dirtyRead).toBeNull();
    expect(await db.user.findUnique({ where: { id: 'u-outside-1' } })).not.toBeNull();
  });

  it('a Gatehouse prepared statement from another request survives the rollback', async () => {
    const { db, release, done } = await failingTransaction('u-inside-2');
    const sql = payloadSql.oidcPayloadSql(db);
    const now = new Date();
    const row = { model: 'AccessToken', id: 'at-1', payload: '{}', grantId: null, userCode: null, uid: null, accountId: null, clientId: null, expiresAt: null };
    let written = false;
    const write = sql.upsert(row, now).then(() => (written = true));
    await settle();
    expect(written).toBe(false); // it waits for the transaction to end
    release();
    await expect(done).rejects.toThrow('rolled back on purpose');
    await write;
    expect(await sql.find('AccessToken', 'at-1')).not.toBeNull();
  });

  it('waits for a transaction the connection is in before its hold is recorded (BEGIN runs first)', async () => {
    const db = await pool.getRealmDb(name);
    const driver = handle.driverOf(db);
    if (driver?.kind !== 'sqlite') throw new Error('expected the SQLite driver');
    driver.db.prepare('BEGIN').run();
    const sql = payloadSql.oidcPayloadSql(db);
    const row = { model: 'AccessToken', id: 'at-2', payload: '{}', grantId: null, userCode: null, uid: null, accountId: null, clientId: null, expiresAt: null };
    let written = false;
    const write = sql.upsert(row, new Date()).then(() => (written = true));
    await settle();
    expect(written).toBe(false);
    driver.db.prepare('ROLLBACK').run();
    await write;
    expect(await sql.find('AccessToken', 'at-2')).not.toBeNull();
  });
});
