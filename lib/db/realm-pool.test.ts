import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Dialect from './dialect';
import type * as GlobalDb from './global-db';
import type * as MigrateAll from './migrate-all';
import type * as RealmDatabases from './realm-databases';
import type * as RealmPool from './realm-pool';
import { adminQuery, postgresReachable, useTempStores } from '../testing/temp-stores';

// The per-realm pool and database lifecycle against real databases: SQLite files, and PostgreSQL
// (a temporary global database on the local server) when it is reachable.

const IDLE_MS = 1500;
const pgUp = await postgresReachable('PostgreSQL pool tests');

type Modules = {
  pool: typeof RealmPool;
  dbs: typeof RealmDatabases;
  globalDb: typeof GlobalDb;
  all: typeof MigrateAll;
  dialect: typeof Dialect;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const targets = [{ name: 'sqlite' as const }, ...(pgUp ? [{ name: 'postgresql' as const }] : [])];

describe.each(targets)('realm databases on $name', ({ name }) => {
  let stores: Awaited<ReturnType<typeof useTempStores>>;
  const created: string[] = [];
  let m: Modules;

  const newName = () => {
    const n = m.dbs.realmDatabaseName(randomUUID());
    created.push(n);
    return n;
  };
  /** An existing but never-migrated database, as an older release would have left it. */
  async function createBareDatabase(n: string): Promise<void> {
    if (name === 'postgresql') {
      await adminQuery(`CREATE DATABASE "${n}"`);
      return;
    }
    mkdirSync(m.dialect.realmsSqliteDir(), { recursive: true });
    new Database(m.dialect.realmSqlitePath(n)).close();
  }
  async function connectionsTo(n: string): Promise<number> {
    const { rows } = await adminQuery(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = '${n}'`);
    return (rows[0] as { n: number }).n;
  }

  beforeAll(async () => {
    stores = await useTempStores(name);
    process.env.GATEHOUSE_REALM_POOL_MAX = '2';
    process.env.GATEHOUSE_REALM_POOL_IDLE_MS = String(IDLE_MS);
    // Fresh modules so lib/config/env.ts parses this block's environment.
    vi.resetModules();
    m = {
      pool: await import('./realm-pool'),
      dbs: await import('./realm-databases'),
      globalDb: await import('./global-db'),
      all: await import('./migrate-all'),
      dialect: await import('./dialect'),
    };
    expect(m.dialect.dialect()).toBe(name);
  });

  afterAll(async () => {
    await m.pool.closeAllRealmDbs();
    await m.globalDb.closeGlobalDb();
    for (const n of created) await m.dbs.dropRealmDatabase(n);
    await stores.restore();
  });

  it('derives safe database names from realm ids', () => {
    expect(m.dbs.realmDatabaseName('3F2504E0-4F89-11D3-9A0C-0305E82C3301')).toBe('gh_r_3f2504e04f8911d39a0c0305e82c3301');
    expect(() => m.dbs.realmDatabaseName('--')).toThrow();
    expect(() => m.dbs.realmDatabaseName('a'.repeat(60))).toThrow();
    expect(() => m.dialect.realmSqlitePath('../escape')).toThrow(/Invalid database name/);
  });

  it('creates a database, and concurrent first opens share one client', async () => {
    const n = newName();
    expect(await m.dbs.realmDatabaseExists(n)).toBe(false);
    await m.dbs.createRealmDatabase(n);
    expect(await m.dbs.realmDatabaseExists(n)).toBe(true);
    await expect(m.dbs.createRealmDatabase(n)).rejects.toThrow();
    if (name === 'sqlite') {
      const raw = new Database(m.dialect.realmSqlitePath(n), { readonly: true });
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal'); // readers never block the writer
      raw.close();
    }

    const [a, b] = await Promise.all([m.pool.getRealmDb(n), m.pool.getRealmDb(n)]);
    expect(a).toBe(b);
    await a.user.create({
      data: {
        id: randomUUID(),
        userName: 'Ada',
        userNameNormalized: 'ada',
        email: 'ada@example.test',
        emailNormalized: 'ada@example.test',
        securityStamp: 's',
      },
    });
    expect(await b.user.count()).toBe(1);
    expect(m.pool.openRealmDbCount()).toBeGreaterThanOrEqual(1);
  });

  it('enforces foreign keys and cascades on the pooled client', async () => {
    const n = newName();
    await m.dbs.createRealmDatabase(n);
    const db = await m.pool.getRealmDb(n);
    await expect(db.session.create({ data: { id: 's1', tokenHash: 'h1', userId: 'nobody', expiresAt: new Date() } })).rejects.toThrow();
    const userId = randomUUID();
    await db.user.create({ data: { id: userId, userName: 'b', userNameNormalized: 'b', email: 'b@x.test', emailNormalized: 'b@x.test', securityStamp: 's' } });
    await db.session.create({ data: { id: 's2', tokenHash: 'h2', userId, expiresAt: new Date() } });
    await db.user.delete({ where: { id: userId } });
    expect(await db.session.count()).toBe(0);
  });

  it('migrates a database on its first open in the process', async () => {
    const n = newName();
    await createBareDatabase(n);
    const db = await m.pool.getRealmDb(n);
    const rows = await db.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM _gatehouse_migrations ORDER BY id');
    expect(rows.map((r) => r.id)).toContain('0001_init');
    expect(await db.user.count()).toBe(0);
  });

  it('refuses a database that does not exist', async () => {
    const n = newName();
    await expect(m.pool.getRealmDb(n)).rejects.toThrow();
    if (name === 'sqlite') expect(existsSync(m.dialect.realmSqlitePath(n))).toBe(false);
    await m.dbs.createRealmDatabase(n); // a failed open is not cached: the next call retries
    await expect(m.pool.getRealmDb(n)).resolves.toBeDefined();
  });

  it('disconnects a client when it is evicted', async () => {
    const n = newName();
    await m.dbs.createRealmDatabase(n);
    const db = await m.pool.getRealmDb(n);
    await db.user.count();
    if (name === 'postgresql') expect(await connectionsTo(n)).toBeGreaterThan(0);
    const disconnect = vi.spyOn(db, '$disconnect');
    await m.pool.evictRealmDb(n);
    expect(disconnect).toHaveBeenCalledOnce();
    if (name === 'postgresql') await vi.waitFor(async () => expect(await connectionsTo(n)).toBe(0));
    const again = await m.pool.getRealmDb(n);
    expect(again).not.toBe(db);
    expect(await again.user.count()).toBe(0);
  });

  it('keeps at most GATEHOUSE_REALM_POOL_MAX clients, evicting the least recently used', async () => {
    const names = [newName(), newName(), newName()];
    for (const n of names) await m.dbs.createRealmDatabase(n);
    const first = await m.pool.getRealmDb(names[0]);
    const disconnect = vi.spyOn(first, '$disconnect');
    await m.pool.getRealmDb(names[1]);
    await m.pool.getRealmDb(names[2]);
    expect(m.pool.openRealmDbCount()).toBe(2);
    await vi.waitFor(() => expect(disconnect).toHaveBeenCalledOnce());
  });

  it('evicts and disconnects idle clients', async () => {
    const n = newName();
    await m.dbs.createRealmDatabase(n);
    await m.pool.closeAllRealmDbs();
    const db = await m.pool.getRealmDb(n);
    const disconnect = vi.spyOn(db, '$disconnect');
    expect(m.pool.openRealmDbCount()).toBe(1);
    await sleep(IDLE_MS + 300);
    expect(m.pool.openRealmDbCount()).toBe(0);
    await vi.waitFor(() => expect(disconnect).toHaveBeenCalledOnce());
  });

  it('drops a database, closing its pooled client first', async () => {
    const n = newName();
    await m.dbs.createRealmDatabase(n);
    const db = await m.pool.getRealmDb(n);
    await db.user.count();
    const { watchedWalPaths } = await import('./wal-checkpoints');
    // SQLite: the worker checkpoints the open file, and lets go of it before the file is deleted.
    if (name === 'sqlite') expect(watchedWalPaths()).toContain(m.dialect.realmSqlitePath(n));
    const disconnect = vi.spyOn(db, '$disconnect');
    await m.dbs.dropRealmDatabase(n);
    expect(disconnect).toHaveBeenCalledOnce();
    expect(watchedWalPaths()).not.toContain(m.dialect.realmSqlitePath(n));
    expect(await m.dbs.realmDatabaseExists(n)).toBe(false);
    await expect(m.pool.getRealmDb(n)).rejects.toThrow();
    await m.dbs.dropRealmDatabase(n); // idempotent: realm creation uses it to undo
    if (name === 'sqlite') expect(existsSync(m.dialect.realmSqlitePath(n))).toBe(false);
  }, 30_000); // DROP DATABASE right after CREATE can wait for a checkpoint (docs/environment.md)

  it('migrateAll upgrades the global store and every provisioned realm', async () => {
    expect(await m.globalDb.pingGlobalDb()).toBe(true);
    const global = await m.globalDb.getGlobalDb();
    const bare = newName();
    await createBareDatabase(bare);
    const missing = newName(); // reserved but never provisioned: its database does not exist
    for (const [databaseName, isProvisioned] of [
      [bare, true],
      [missing, false],
    ] as const) {
      await global.realm.create({
        data: { id: randomUUID(), slug: databaseName, displayName: 'T', primaryDomain: `${databaseName}.test`, databaseName, isProvisioned },
      });
    }
    const lines: string[] = [];
    const report = await m.all.migrateAll((l) => lines.push(l));
    expect(report.realms).toBe(1);
    expect(report.realmsUpgraded).toBe(1);
    expect(report.skipped).toEqual([missing]);
    expect(report.failed).toEqual([]);
    expect((await m.all.migrateAll()).realmsUpgraded).toBe(0);
    expect(lines.at(-1)).toMatch(/1 upgraded/);
  });
});
