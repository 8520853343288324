import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postgresReachable, useTempStores } from '../../testing/temp-stores';
import type * as GlobalDb from '../../db/global-db';
import type * as RealmDatabases from '../../db/realm-databases';
import type * as RealmPool from '../../db/realm-pool';
import type * as Lock from './purge-lock';
import type * as Pass from './purge-pass';
import type * as Schedule from './purge-schedule';
import type * as Redis from '../../runtime/redis';
import type * as RedisLease from '../../runtime/redis-lease';

// The purge job against real databases: SQLite, and PostgreSQL (a temporary global database on the
// local server) when it is reachable, where two runners must not purge at once. The Redis lease
// is checked when a local Redis answers.

const REDIS_URL = process.env.GATEHOUSE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const pgUp = await postgresReachable('PostgreSQL purge tests');
const redisUp = await new Promise<boolean>((resolve) => {
  const u = new URL(REDIS_URL);
  const socket = connect({ host: u.hostname, port: Number(u.port || 6379) });
  socket.setTimeout(1000, () => (socket.destroy(), resolve(false)));
  socket.on('connect', () => (socket.destroy(), resolve(true)));
  socket.on('error', () => resolve(false));
});

type Modules = {
  schedule: typeof Schedule;
  pass: typeof Pass;
  lock: typeof Lock;
  pool: typeof RealmPool;
  dbs: typeof RealmDatabases;
  globalDb: typeof GlobalDb;
};

const HOUR = 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const later = (ms: number) => new Date(Date.now() + ms);
const targets = [{ name: 'sqlite' as const }, ...(pgUp ? [{ name: 'postgresql' as const }] : [])];

describe.each(targets)('purge of expired rows on $name', ({ name }) => {
  let stores: Awaited<ReturnType<typeof useTempStores>>;
  const databases: string[] = [];
  let m: Modules;

  /** A provisioned realm with its own database; returns the database name. */
  async function newRealm(): Promise<string> {
    const id = randomUUID();
    const databaseName = m.dbs.realmDatabaseName(id);
    await m.dbs.createRealmDatabase(databaseName);
    databases.push(databaseName);
    const global = await m.globalDb.getGlobalDb();
    await global.realm.create({ data: { id, slug: `p${id.slice(0, 8)}`, displayName: 'P', primaryDomain: `${id}.test`, databaseName, isProvisioned: true } });
    return databaseName;
  }

  beforeAll(async () => {
    stores = await useTempStores(name);
    delete process.env.REDIS_URL;
    // Fresh modules so lib/config/env.ts parses this block's environment.
    vi.resetModules();
    m = {
      schedule: await import('./purge-schedule'),
      pass: await import('./purge-pass'),
      lock: await import('./purge-lock'),
      pool: await import('../../db/realm-pool'),
      dbs: await import('../../db/realm-databases'),
      globalDb: await import('../../db/global-db'),
    };
  });

  afterAll(async () => {
    await m.pool.closeAllRealmDbs();
    for (const n of databases) await m.dbs.dropRealmDatabase(n);
    await m.globalDb.closeGlobalDb();
    await stores.restore();
  }, 60_000); // a PostgreSQL database dropped per realm of the file

  it('deletes expired secrets, engine rows and revocations in every realm, and keeps the live ones', async () => {
    const databaseName = await newRealm();
    const db = await m.pool.getRealmDb(databaseName);
    const secret = (id: string, expiresAt: Date) => ({ id, purpose: 'password-reset', secretHash: `h-${id}`, expiresAt });
    await db.oneTimeSecret.createMany({
      data: [
        ...[1, 2, 3, 4, 5].map((i) => secret(`old-${i}`, ago(25 * HOUR))), // past the day kept for the audit trail
        secret('recent', ago(HOUR)), // expired, but within that day
        secret('live', later(HOUR)),
      ],
    });
    const payload = (model: string, id: string, expiresAt: Date | null) => ({ model, id, payload: '{}', expiresAt });
    await db.oidcPayload.createMany({
      data: [
        payload('AccessToken', 'a-old', ago(1000)),
        payload('Grant', 'g-old', ago(1000)),
        payload('Session', 's-old', ago(1000)),
        payload('AccessToken', 'a-live', later(HOUR)),
        payload('Grant', 'g-forever', null),
      ],
    });
    await db.revokedAccessToken.createMany({
      data: [
        { jtiHash: 'r-old', expiresAt: ago(1000) },
        { jtiHash: 'r-live', expiresAt: later(HOUR) },
      ],
    });
    // A realm whose creation never finished has no database to purge: it is not visited.
    const global = await m.globalDb.getGlobalDb();
    const halfMade = randomUUID();
    await global.realm.create({
      data: {
        id: halfMade,
        slug: `h${halfMade.slice(0, 8)}`,
        displayName: 'H',
        primaryDomain: `${halfMade}.test`,
        databaseName: m.dbs.realmDatabaseName(halfMade),
        isProvisioned: false,
      },
    });

    const report = await m.pass.purgeExpiredRows({ limits: { batchSize: 2, maxBatches: 100 } });

    expect(report.failed).toBe(0);
    expect(report.deleted).toEqual({ secrets: 5, engineRows: 3, revocations: 1, securityLog: 0 });
    expect((await db.oneTimeSecret.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((r) => r.id)).toEqual(['live', 'recent']);
    expect((await db.oidcPayload.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((r) => r.id)).toEqual(['a-live', 'g-forever']);
    expect((await db.revokedAccessToken.findMany({ select: { jtiHash: true } })).map((r) => r.jtiHash)).toEqual(['r-live']);
  });

  it("deletes security-log entries past each realm's retention and platform-audit entries past the platform's, nothing newer", async () => {
    const DAY = 24 * HOUR;
    const entry = (id: string, createdAt: Date) => ({ id, createdAt, category: 'Authentication', eventType: 'auth.login-succeeded' });
    // A realm keeping 30 days, and one on the default (365 days).
    const short = await m.pool.getRealmDb(await newRealm());
    await short.realmSettings.create({ data: { id: 'realm', document: JSON.stringify({ Retention: { SecurityLogDays: 30 } }) } });
    await short.authLogEvent.createMany({
      data: [entry('s-old-1', ago(31 * DAY)), entry('s-old-2', ago(400 * DAY)), entry('s-old-3', ago(30 * DAY + HOUR)), entry('s-kept', ago(30 * DAY - HOUR))],
    });
    const long = await m.pool.getRealmDb(await newRealm());
    await long.authLogEvent.createMany({ data: [entry('l-old', ago(366 * DAY)), entry('l-kept', ago(364 * DAY)), entry('l-new', ago(HOUR))] });
    const global = await m.globalDb.getGlobalDb();
    await global.platformSettings.upsert({
      where: { id: 'platform' },
      update: { document: JSON.stringify({ Retention: { PlatformAuditDays: 10 } }) },
      create: { id: 'platform', document: JSON.stringify({ Retention: { PlatformAuditDays: 10 } }) },
    });
    const audit = (id: string, createdAt: Date) => ({ id, createdAt, category: 'Realm', eventType: 'realm.updated' });
    await global.platformAuditEvent.createMany({ data: [audit('p-old-1', ago(11 * DAY)), audit('p-old-2', ago(90 * DAY)), audit('p-kept', ago(9 * DAY))] });

    const report = await m.pass.purgeExpiredRows({ limits: { batchSize: 2, maxBatches: 100 } });

    expect(report.failed).toBe(0);
    expect(report.deleted.securityLog).toBe(4);
    expect(report.platformAudit).toBe(2);
    expect((await short.authLogEvent.findMany({ select: { id: true } })).map((r) => r.id)).toEqual(['s-kept']);
    expect((await long.authLogEvent.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((r) => r.id)).toEqual(['l-kept', 'l-new']);
    expect((await global.platformAuditEvent.findMany({ select: { id: true } })).map((r) => r.id)).toEqual(['p-kept']);

    // The platform default applies without a stored document: 365 days.
    await global.platformSettings.deleteMany();
    await global.platformAuditEvent.createMany({ data: [audit('p-year', ago(366 * DAY)), audit('p-month', ago(30 * DAY))] });
    expect((await m.pass.purgeExpiredRows()).platformAudit).toBe(1);
    expect((await global.platformAuditEvent.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((r) => r.id)).toEqual(['p-kept', 'p-month']);
  }, 30_000); // two realm databases and three passes over every realm of the file

  it('deletes at most the batch limit per table and realm in one pass; the next pass goes on', async () => {
    const databaseName = await newRealm();
    const db = await m.pool.getRealmDb(databaseName);
    await db.oidcPayload.createMany({ data: [1, 2, 3, 4, 5].map((i) => ({ model: 'AccessToken', id: `x-${i}`, payload: '{}', expiresAt: ago(1000) })) });
    await m.pass.purgeExpiredRows({ limits: { batchSize: 2, maxBatches: 1 } });
    expect(await db.oidcPayload.count()).toBe(3);
    await m.pass.purgeExpiredRows({ limits: { batchSize: 2, maxBatches: 10 } });
    expect(await db.oidcPayload.count()).toBe(0);
  });

  it('purges realms that are not open without adding them to the pool', async () => {
    const databaseName = await newRealm();
    await (await m.pool.getRealmDb(databaseName)).revokedAccessToken.create({ data: { jtiHash: 'closed-old', expiresAt: ago(1000) } });
    await m.pool.closeAllRealmDbs();
    const report = await m.pass.purgeExpiredRows();
    expect(report.deleted.revocations).toBe(1);
    expect(m.pool.openRealmDbCount()).toBe(0);
  });

  it('runs passes on its timer until stopped', async () => {
    const databaseName = await newRealm();
    const db = await m.pool.getRealmDb(databaseName);
    await db.revokedAccessToken.create({ data: { jtiHash: 'timed-old', expiresAt: ago(1000) } });
    const schedule = m.schedule.startPurgeSchedule(20);
    try {
      for (let i = 0; i < 250 && (await db.revokedAccessToken.count()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await db.revokedAccessToken.count()).toBe(0);
    } finally {
      await schedule.stop();
    }
  });

  it.runIf(name === 'postgresql')('lets one runner purge at a time: a second one skips while the first holds the lock', async () => {
    let release!: () => void;
    let started!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = m.lock.withPurgeLock(async () => {
      started();
      await gate;
      return m.pass.purgeExpiredRows();
    });
    await new Promise<void>((r) => (started = r));
    let secondRan = false;
    const second = await m.lock.withPurgeLock(async () => {
      secondRan = true;
      return m.pass.purgeExpiredRows();
    });
    expect(second).toEqual({ ran: false });
    expect(secondRan).toBe(false);
    release();
    expect((await first).ran).toBe(true);
    // Released: the next runner gets it.
    expect((await m.lock.withPurgeLock(async () => 'again')).ran).toBe(true);
  });
});

describe.runIf(redisUp)('the Redis lease', () => {
  const saved = { ...process.env };
  let lease: typeof RedisLease;
  let redis: typeof Redis;

  beforeAll(async () => {
    process.env.REDIS_URL = REDIS_URL;
    vi.resetModules();
    lease = await import('../../runtime/redis-lease');
    redis = await import('../../runtime/redis');
  });
  afterAll(async () => {
    await redis.redisClient().quit();
    process.env = saved;
  });

  it('is held by one runner at a time and released when its work ends', async () => {
    const name = `test-${randomUUID()}`;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = lease.withRedisLease(name, 10_000, () => gate);
    await new Promise((r) => setTimeout(r, 50));
    expect(await lease.withRedisLease(name, 10_000, async () => 'second')).toEqual({ ran: false });
    release();
    expect((await first).ran).toBe(true);
    expect(await lease.withRedisLease(name, 10_000, async () => 'third')).toEqual({ ran: true, value: 'third' });
  });
});
