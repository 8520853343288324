import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RealmDb } from '../lib/db/types';

// The data-export measurement (scenario-export.ts starts it), in two processes so the figures are
// the export's alone:
//   seed <dataDir> <entries>: a SQLite realm with one person and `entries` security-log entries
//     (and a second person with a thousand, for the warm-up); prints the database name and the ids;
//   export <dataDir> <database> <warmId> <userId>: the product's archive builder
//     (lib/domain/privacy/export-archive.ts) written into a byte counter as fast as it comes. The
//     resident set size is sampled every 5 ms while the archive is written, after a warm-up export
//     and a GC. Prints one JSON line.

async function seedRealm(dataDir: string, entries: number): Promise<void> {
  process.env.GATEHOUSE_DATA_DIR = dataDir;
  const { createRealmDatabase, realmDatabaseName } = await import('../lib/db/realm-databases');
  const { getRealmDb, closeAllRealmDbs } = await import('../lib/db/realm-pool');
  const name = realmDatabaseName(randomUUID());
  await createRealmDatabase(name);
  const db = await getRealmDb(name);
  const [userId, warmId] = [randomUUID(), randomUUID()];
  await seed(db, userId, entries);
  await seed(db, warmId, 1_000);
  await closeAllRealmDbs();
  process.stdout.write(`${JSON.stringify({ database: name, userId, warmId })}\n`);
}

/** A person with `entries` security-log entries (sign-ins from one browser, a second apart). */
async function seed(db: RealmDb, id: string, entries: number): Promise<void> {
  await db.user.create({
    data: { id, userName: id, userNameNormalized: id, email: `${id}@example.test`, emailNormalized: `${id}@example.test`, securityStamp: 'x' },
  });
  const base = Date.UTC(2026, 0, 1);
  for (let done = 0; done < entries; done += 5_000) {
    const n = Math.min(5_000, entries - done);
    await db.authLogEvent.createMany({
      data: Array.from({ length: n }, (_, i) => ({
        id: randomUUID(),
        createdAt: new Date(base + (done + i) * 1000),
        category: 'Authentication',
        eventType: 'auth.login-succeeded',
        userId: id,
        userName: id,
        ipAddress: '203.0.113.7',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
        detail: '{"method":"pwd"}',
      })),
    });
  }
}

async function exportOnce(dataDir: string, database: string, warmId: string, userId: string): Promise<void> {
  process.env.GATEHOUSE_DATA_DIR = dataDir;
  const { getRealmDb, closeAllRealmDbs } = await import('../lib/db/realm-pool');
  const { unitRealm } = await import('../lib/testing/unit-realm');
  const { readPersonalData } = await import('../lib/domain/privacy/personal-data');
  const { exportArchive } = await import('../lib/domain/privacy/export-archive');
  const db = await getRealmDb(database);
  const realm = unitRealm(database);
  // The warm-up loads the code and the query engine's paths out of the figures.
  await count(exportArchive({ db, userId: warmId, data: (await readPersonalData(db, realm, warmId))! }));
  globalThis.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = performance.now();
  const data = (await readPersonalData(db, realm, userId))!;
  const bytes = await count(exportArchive({ db, userId, data }));
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await closeAllRealmDbs();
  process.stdout.write(`${JSON.stringify({ bytes, ms, baselineMiB: baseline / 2 ** 20, peakMiB: peak / 2 ** 20 })}\n`);
}

/** The bytes of the stream, read as fast as it comes. */
async function count(stream: ReadableStream<Uint8Array>): Promise<number> {
  let bytes = 0;
  await pipeline(
    stream as unknown as AsyncIterable<Uint8Array>,
    new Writable({
      write(chunk: Uint8Array, _encoding, done) {
        bytes += chunk.byteLength;
        done();
      },
    }),
  );
  return bytes;
}

const [mode, dataDir, ...rest] = process.argv.slice(2);
const run = mode === 'seed' ? seedRealm(dataDir, Number(rest[0])) : exportOnce(dataDir, rest[0], rest[1], rest[2]);
run.then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`export bench (${mode}) failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
