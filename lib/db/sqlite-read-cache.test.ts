import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { clearReadCache, readPointNow, readThrough, type ReadPoint } from './sqlite-read-cache';

// The read cache against real SQLite files: whatever wrote the row (this connection through any
// statement, another connection, a transaction that rolled back), the next read answers what a
// SELECT would.

const dir = mkdtempSync(join(tmpdir(), 'gh-read-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => clearReadCache());

let files = 0;
function pair(): { db: Database.Database; other: Database.Database } {
  const path = join(dir, `db-${files++}.sqlite`);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE "OidcPayload" ("model" TEXT NOT NULL, "id" TEXT NOT NULL, "payload" TEXT NOT NULL, PRIMARY KEY ("model", "id"))');
  db.exec('CREATE TABLE "User" ("id" TEXT NOT NULL PRIMARY KEY, "userName" TEXT NOT NULL)');
  return { db, other: new Database(path) };
}

type Row = { payload: string };

function cachedRead(db: Database.Database, model: string, id: string, point?: ReadPoint): { value: Row | null; fromDb: boolean } {
  let fromDb = false;
  const value = readThrough<Row>(
    db,
    'OidcPayload',
    [model, id],
    (r) => r.payload.length,
    () => {
      fromDb = true;
      return (db.prepare('SELECT "payload" FROM "OidcPayload" WHERE "model" = ? AND "id" = ?').get(model, id) as Row | undefined) ?? null;
    },
    point,
  );
  return { value, fromDb };
}

const insert = (db: Database.Database, model: string, id: string, payload: string) =>
  db.prepare('INSERT INTO "OidcPayload" ("model", "id", "payload") VALUES (?, ?, ?)').run(model, id, payload);

describe('the SQLite read cache', () => {
  it('answers a row read before from memory, frozen', () => {
    const { db } = pair();
    insert(db, 'Grant', 'g1', 'one');
    expect(cachedRead(db, 'Grant', 'g1')).toEqual({ value: { payload: 'one' }, fromDb: true });
    const again = cachedRead(db, 'Grant', 'g1');
    expect(again).toEqual({ value: { payload: 'one' }, fromDb: false });
    expect(Object.isFrozen(again.value)).toBe(true);
  });

  it('keys rows by every key column, and keeps a missing row as missing until a write makes it', () => {
    const { db } = pair();
    insert(db, 'Grant', 'x', 'grant');
    insert(db, 'AccessToken', 'x', 'token');
    expect(cachedRead(db, 'Grant', 'x').value).toEqual({ payload: 'grant' });
    expect(cachedRead(db, 'AccessToken', 'x').value).toEqual({ payload: 'token' });
    expect(cachedRead(db, 'Grant', 'y')).toEqual({ value: null, fromDb: true });
    expect(cachedRead(db, 'Grant', 'y')).toEqual({ value: null, fromDb: false });
    insert(db, 'Grant', 'y', 'late');
    expect(cachedRead(db, 'Grant', 'y')).toEqual({ value: { payload: 'late' }, fromDb: true });
  });

  it.each([
    ['UPDATE', (db: Database.Database) => db.prepare(`UPDATE "OidcPayload" SET "payload" = 'changed' WHERE "id" = 'g1'`).run()],
    ['DELETE', (db: Database.Database) => db.prepare(`DELETE FROM "OidcPayload" WHERE "payload" = 'one'`).run()],
    ['INSERT OR REPLACE', (db: Database.Database) => db.prepare(`INSERT OR REPLACE INTO "OidcPayload" VALUES ('Grant', 'g1', 'changed')`).run()],
    [
      'an upsert',
      (db: Database.Database) =>
        db
          .prepare(`INSERT INTO "OidcPayload" VALUES ('Grant', 'g1', 'changed') ON CONFLICT ("model", "id") DO UPDATE SET "payload" = excluded."payload"`)
          .run(),
    ],
    ['an UPDATE of the key', (db: Database.Database) => db.prepare(`UPDATE "OidcPayload" SET "id" = 'g2' WHERE "id" = 'g1'`).run()],
  ])('forgets a row when this connection changes it by %s', (_name, write) => {
    const { db } = pair();
    insert(db, 'Grant', 'g1', 'one');
    cachedRead(db, 'Grant', 'g1');
    write(db);
    const direct = db.prepare(`SELECT "payload" FROM "OidcPayload" WHERE "model" = 'Grant' AND "id" = 'g1'`).get() ?? null;
    expect(cachedRead(db, 'Grant', 'g1')).toEqual({ value: direct, fromDb: true });
  });

  it('an UPDATE that moves a row to another key forgets the new key’s kept absence too', () => {
    const { db } = pair();
    insert(db, 'Grant', 'g1', 'one');
    expect(cachedRead(db, 'Grant', 'g2').value).toBeNull();
    db.prepare(`UPDATE "OidcPayload" SET "id" = 'g2' WHERE "id" = 'g1'`).run();
    expect(cachedRead(db, 'Grant', 'g2')).toEqual({ value: { payload: 'one' }, fromDb: true });
  });

  it('forgets what it kept when another connection commits', () => {
    const { db, other } = pair();
    insert(db, 'Grant', 'g1', 'one');
    cachedRead(db, 'Grant', 'g1');
    other.prepare(`DELETE FROM "OidcPayload"`).run();
    expect(cachedRead(db, 'Grant', 'g1')).toEqual({ value: null, fromDb: true });
  });

  it('checks for other connections once for every request that arrived before the check; this connection’s writes count at once', () => {
    const { db, other } = pair();
    insert(db, 'Grant', 'g1', 'one');
    const first = readPointNow();
    const second = readPointNow();
    expect(cachedRead(db, 'Grant', 'g1', second).fromDb).toBe(true);
    // A commit elsewhere after that check: both requests were waiting when it was made, so their reads
    // answer the state at it, a state inside each one's span.
    other.prepare(`UPDATE "OidcPayload" SET "payload" = 'elsewhere'`).run();
    expect(cachedRead(db, 'Grant', 'g1', second)).toEqual({ value: { payload: 'one' }, fromDb: false });
    expect(cachedRead(db, 'Grant', 'g1', first)).toEqual({ value: { payload: 'one' }, fromDb: false });
    // A request that arrives after the check checks again; so does a read without a point.
    expect(cachedRead(db, 'Grant', 'g1', readPointNow())).toEqual({ value: { payload: 'elsewhere' }, fromDb: true });
    other.prepare(`UPDATE "OidcPayload" SET "payload" = 'unpointed'`).run();
    expect(cachedRead(db, 'Grant', 'g1')).toEqual({ value: { payload: 'unpointed' }, fromDb: true });
    const later = readPointNow();
    cachedRead(db, 'Grant', 'g1', later);
    db.prepare(`UPDATE "OidcPayload" SET "payload" = 'here'`).run();
    expect(cachedRead(db, 'Grant', 'g1', later)).toEqual({ value: { payload: 'here' }, fromDb: true });
  });

  it('counts a check for the connection it was made on only', () => {
    const a = pair();
    const b = pair();
    insert(a.db, 'Grant', 'g1', 'a');
    insert(b.db, 'Grant', 'g1', 'b');
    cachedRead(b.db, 'Grant', 'g1');
    const request = readPointNow();
    cachedRead(a.db, 'Grant', 'g1', request); // checks a only
    b.other.prepare(`UPDATE "OidcPayload" SET "payload" = 'b2'`).run();
    expect(cachedRead(b.db, 'Grant', 'g1', request)).toEqual({ value: { payload: 'b2' }, fromDb: true });
  });

  it('neither answers nor keeps inside a transaction, whose writes may roll back', () => {
    const { db } = pair();
    insert(db, 'Grant', 'g1', 'one');
    cachedRead(db, 'Grant', 'g1');
    db.exec('BEGIN');
    db.prepare(`UPDATE "OidcPayload" SET "payload" = 'uncommitted'`).run();
    expect(cachedRead(db, 'Grant', 'g1')).toEqual({ value: { payload: 'uncommitted' }, fromDb: true });
    db.exec('ROLLBACK');
    expect(cachedRead(db, 'Grant', 'g1')).toEqual({ value: { payload: 'one' }, fromDb: true });
  });

  it('puts its triggers back when another connection made the table again', () => {
    const { db, other } = pair();
    insert(db, 'Grant', 'g1', 'one');
    cachedRead(db, 'Grant', 'g1');
    other.exec(
      `DROP TABLE "OidcPayload"; CREATE TABLE "OidcPayload" ("model" TEXT NOT NULL, "id" TEXT NOT NULL, "payload" TEXT NOT NULL, PRIMARY KEY ("model", "id"))`,
    );
    insert(other, 'Grant', 'g1', 'two');
    expect(cachedRead(db, 'Grant', 'g1').value).toEqual({ payload: 'two' });
    db.prepare(`UPDATE "OidcPayload" SET "payload" = 'three'`).run();
    expect(cachedRead(db, 'Grant', 'g1')).toEqual({ value: { payload: 'three' }, fromDb: true });
  });

  it('keeps each table apart', () => {
    const { db } = pair();
    db.prepare(`INSERT INTO "User" VALUES ('u1', 'ada')`).run();
    const readUser = () =>
      readThrough(
        db,
        'User',
        ['u1'],
        () => 8,
        () => (db.prepare(`SELECT "userName" FROM "User" WHERE "id" = 'u1'`).get() as object) ?? null,
      );
    expect(readUser()).toEqual({ userName: 'ada' });
    db.prepare(`UPDATE "User" SET "userName" = 'grace'`).run();
    expect(readUser()).toEqual({ userName: 'grace' });
  });

  it('always answers what a SELECT answers, whatever the writes in between (property)', () => {
    const key = fc.constantFrom('a', 'b');
    // Mostly this connection's writes: another's resets the whole cache, which would hide a missed eviction.
    const byOther = fc.constantFrom(false, false, false, true);
    const op = fc.oneof(
      fc.record({ kind: fc.constant('read' as const), id: key }),
      fc.record({ kind: fc.constant('put' as const), id: key, value: fc.string({ minLength: 1 }), byOther }),
      fc.record({ kind: fc.constant('delete' as const), id: key, byOther }),
      fc.record({ kind: fc.constant('rolledBack' as const), id: key, value: fc.string() }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 10, maxLength: 60 }), (ops) => {
        clearReadCache();
        const { db, other } = pair();
        for (const o of ops) {
          if (o.kind === 'read') {
            const direct = db.prepare(`SELECT "payload" FROM "OidcPayload" WHERE "model" = 'M' AND "id" = ?`).get(o.id) ?? null;
            expect(cachedRead(db, 'M', o.id).value).toEqual(direct);
          } else if (o.kind === 'put') {
            (o.byOther ? other : db)
              .prepare(`INSERT INTO "OidcPayload" VALUES ('M', ?, ?) ON CONFLICT ("model", "id") DO UPDATE SET "payload" = excluded."payload"`)
              .run(o.id, o.value);
          } else if (o.kind === 'delete') {
            (o.byOther ? other : db).prepare(`DELETE FROM "OidcPayload" WHERE "model" = 'M' AND "id" = ?`).run(o.id);
          } else {
            db.exec('BEGIN');
            db.prepare(`INSERT OR REPLACE INTO "OidcPayload" VALUES ('M', ?, ?)`).run(o.id, o.value);
            cachedRead(db, 'M', o.id);
            db.exec('ROLLBACK');
          }
        }
        db.close();
        other.close();
      }),
      { numRuns: 100 },
    );
  });

  it('answers a request a state from inside its own span, whichever requests’ checks it shares (property)', () => {
    const key = fc.constantFrom('a', 'b');
    const op = fc.oneof(
      fc.record({ kind: fc.constant('arrive' as const) }),
      fc.record({ kind: fc.constant('read' as const), id: key, request: fc.nat() }),
      fc.record({ kind: fc.constant('put' as const), id: key, value: fc.string({ minLength: 1 }), byOther: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 10, maxLength: 60 }), (ops) => {
        clearReadCache();
        const { db, other } = pair();
        const direct = (id: string) => JSON.stringify(db.prepare(`SELECT "payload" FROM "OidcPayload" WHERE "model" = 'M' AND "id" = ?`).get(id) ?? null);
        // The states each key went through, and for each request the first of them inside its span.
        const history: Record<string, string[]> = { a: [direct('a')], b: [direct('b')] };
        const requests: { point: ReadPoint; from: Record<string, number> }[] = [];
        for (const o of ops) {
          if (o.kind === 'arrive') {
            requests.push({ point: readPointNow(), from: { a: history.a.length - 1, b: history.b.length - 1 } });
          } else if (o.kind === 'read') {
            const request = requests.length ? requests[o.request % requests.length] : undefined;
            const answer = JSON.stringify(cachedRead(db, 'M', o.id, request?.point).value);
            const since = history[o.id].slice(request ? request.from[o.id] : -1);
            expect(since).toContain(answer);
          } else {
            (o.byOther ? other : db)
              .prepare(`INSERT INTO "OidcPayload" VALUES ('M', ?, ?) ON CONFLICT ("model", "id") DO UPDATE SET "payload" = excluded."payload"`)
              .run(o.id, o.value);
            history[o.id].push(direct(o.id));
          }
        }
        db.close();
        other.close();
      }),
      { numRuns: 100 },
    );
  });
});
