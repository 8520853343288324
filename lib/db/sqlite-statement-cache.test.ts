import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as DriverHandle from './driver-handle';
import type * as GlobalDb from './global-db';
import type * as RealmDatabases from './realm-databases';
import type * as RealmPool from './realm-pool';
import type { RealmDb } from './types';
import { useTempStores } from '../testing/temp-stores';

// Prisma's SQLite adapter on a database whose statements are kept (sqlite-statement-cache.ts),
// through a real Prisma client on a real realm database: every kind of query the product makes still
// answers what it wrote, a failed statement leaves its SQL text usable, and a repeated query is not
// prepared again.

describe('kept SQLite statements under Prisma', () => {
  let stores: Awaited<ReturnType<typeof useTempStores>>;
  let m: { pool: typeof RealmPool; dbs: typeof RealmDatabases; globalDb: typeof GlobalDb; handle: typeof DriverHandle };
  let database: string;
  let db: RealmDb;
  let prepared: string[];

  beforeAll(async () => {
    stores = await useTempStores('sqlite');
    vi.resetModules();
    m = {
      pool: await import('./realm-pool'),
      dbs: await import('./realm-databases'),
      globalDb: await import('./global-db'),
      handle: await import('./driver-handle'),
    };
    database = m.dbs.realmDatabaseName(randomUUID());
    await m.dbs.createRealmDatabase(database);
    db = await m.pool.getRealmDb(database);
    const handle = m.handle.driverOf(db);
    if (handle?.kind !== 'sqlite') throw new Error('expected a SQLite driver');
    // Every statement the database itself prepares, whoever asked.
    prepared = [];
    const prepare = handle.db.prepare.bind(handle.db);
    handle.db.prepare = (sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    };
  });

  afterAll(async () => {
    await m.pool.closeAllRealmDbs();
    await m.globalDb.closeGlobalDb();
    await m.dbs.dropRealmDatabase(database);
    await stores.restore();
  });

  const user = (n: number) => ({
    id: `u-${n}-${randomUUID()}`,
    userName: `user-${n}`,
    userNameNormalized: `USER-${n}-${randomUUID()}`,
    email: `user-${n}@example.test`,
    emailNormalized: `USER-${n}-${randomUUID()}@EXAMPLE.TEST`,
    securityStamp: randomUUID(),
  });

  it('writes and reads back through kept statements: rows, relations, counts, dates and IN lists', async () => {
    const a = await db.user.create({ data: user(1), select: { id: true } });
    const b = await db.user.create({ data: user(2), select: { id: true } });
    const at = new Date(Date.UTC(2030, 4, 6, 7, 8, 9, 123));
    await db.user.update({
      where: { id: a.id },
      data: { lastLoginAt: at, sessions: { create: { id: randomUUID(), tokenHash: randomUUID(), expiresAt: at } } },
    });
    const read = await db.user.findUniqueOrThrow({ where: { id: a.id }, select: { lastLoginAt: true, _count: { select: { sessions: true } } } });
    expect(read.lastLoginAt?.toISOString()).toBe(at.toISOString());
    expect(read._count.sessions).toBe(1);
    for (const ids of [[a.id], [a.id, b.id], [b.id, 'missing', a.id]]) {
      const found = await db.user.findMany({ where: { id: { in: ids } }, select: { id: true }, orderBy: { id: 'asc' } });
      expect(found.map((u) => u.id)).toEqual([a.id, b.id].filter((id) => ids.includes(id)).sort());
    }
    expect(await db.user.count({ where: { id: { in: [a.id, b.id] } } })).toBe(2);
  });

  it('a repeated query is prepared once, whatever its arguments', async () => {
    const ids = await Promise.all([3, 4, 5].map((n) => db.user.create({ data: user(n), select: { id: true } })));
    const before = prepared.length;
    for (const { id } of [...ids, ...ids]) expect((await db.user.findUnique({ where: { id }, select: { id: true } }))?.id).toBe(id);
    expect(prepared.length - before).toBeLessThanOrEqual(1);
  });

  it('a transaction commits through kept statements, and one that fails rolls back', async () => {
    const u = user(6);
    await db.$transaction(async (tx) => {
      await tx.user.create({ data: u });
      await tx.authLogEvent.create({ data: { id: randomUUID(), category: 'Auth', eventType: 'test', userId: u.id } });
    });
    expect(await db.authLogEvent.count({ where: { userId: u.id } })).toBe(1);
    const v = user(7);
    await expect(
      db.$transaction(async (tx) => {
        await tx.user.create({ data: v });
        await tx.user.create({ data: { ...user(8), userNameNormalized: v.userNameNormalized } }); // unique violation
      }),
    ).rejects.toThrow();
    expect(await db.user.findUnique({ where: { id: v.id } })).toBeNull();
  });

  it('a statement that failed (a unique violation) is used again afterwards', async () => {
    const u = user(9);
    await db.user.create({ data: u });
    await expect(db.user.create({ data: { ...user(10), emailNormalized: u.emailNormalized } })).rejects.toThrow();
    const w = user(11);
    await db.user.create({ data: w });
    expect((await db.user.findUniqueOrThrow({ where: { id: w.id } })).userName).toBe('user-11');
  });

  it('raw queries and big integers keep their values', async () => {
    const rows = await db.$queryRawUnsafe<{ n: bigint; s: string }[]>('SELECT ? AS n, ? AS s', 9007199254740993n, 'text');
    expect(rows).toEqual([{ n: 9007199254740993n, s: 'text' }]);
    expect(await db.$executeRawUnsafe('UPDATE "User" SET "acronym" = ? WHERE "id" = ?', 'X', 'nobody')).toBe(0);
  });
});
