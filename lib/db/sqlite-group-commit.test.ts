import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { commitGrouped } from './sqlite-group-commit';
import { trackTransactions } from './sqlite-transaction-gate';

// Group commit against real SQLite files: the writes of one turn commit together, each caller hears
// its own write's outcome, and what commits is what the same writes made one by one would leave.

const dir = mkdtempSync(join(tmpdir(), 'gh-group-commit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function pair(): { db: Database.Database; other: Database.Database } {
  const path = join(dir, `db-${files++}.sqlite`);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE "T" ("id" TEXT NOT NULL PRIMARY KEY, "v" TEXT NOT NULL)');
  return { db, other: new Database(path) };
}

const insert =
  (db: Database.Database, id: string, v = 'x') =>
  () =>
    void db.prepare('INSERT INTO "T" ("id", "v") VALUES (?, ?)').run(id, v);
const ids = (db: Database.Database) => (db.prepare('SELECT "id" FROM "T" ORDER BY "id"').all() as { id: string }[]).map((r) => r.id);

describe('group commit on a SQLite connection', () => {
  it('commits the writes of one turn together, after that turn, and answers each caller once committed', async () => {
    const { db, other } = pair();
    const writes = ['a', 'b', 'c'].map((id) => commitGrouped(db, insert(db, id)));
    // Nothing has run yet: another connection sees none of them, and this one is in no transaction.
    expect(ids(other)).toEqual([]);
    expect(db.inTransaction).toBe(false);
    await Promise.all(writes);
    expect(ids(other)).toEqual(['a', 'b', 'c']);
  });

  it('a failing write rejects only its caller and leaves nothing of its own; the rest commit', async () => {
    const { db, other } = pair();
    insert(db, 'taken')();
    const half = () => {
      db.prepare('INSERT INTO "T" ("id", "v") VALUES (?, ?)').run('half', 'x');
      insert(db, 'taken')(); // fails after a first statement: the savepoint undoes both
    };
    const outcomes = await Promise.allSettled([commitGrouped(db, insert(db, 'a')), commitGrouped(db, half), commitGrouped(db, insert(db, 'b'))]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    expect(ids(other)).toEqual(['a', 'b', 'taken']);
  });

  it('a failing write alone in its turn leaves nothing either (found by the property below)', async () => {
    const { db, other } = pair();
    await commitGrouped(db, insert(db, 'kept'));
    const deletesThenFails = () => {
      db.prepare('DELETE FROM "T" WHERE "id" = ?').run('kept');
      throw new Error('refused');
    };
    await expect(commitGrouped(db, deletesThenFails)).rejects.toThrow('refused');
    expect(ids(other)).toEqual(['kept']);
  });

  it('when the transaction itself is lost, every caller of the group is refused and none of their writes stands', async () => {
    const { db, other } = pair();
    const loses = () => {
      db.prepare('ROLLBACK').run(); // as SQLite does itself on a full disk or an I/O error
      throw new Error('transaction lost');
    };
    const outcomes = await Promise.allSettled([commitGrouped(db, insert(db, 'a')), commitGrouped(db, loses), commitGrouped(db, insert(db, 'b'))]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/transaction lost/);
    expect(ids(other)).toEqual([]);
    expect(db.inTransaction).toBe(false);
    await commitGrouped(db, insert(db, 'after'));
    expect(ids(other)).toEqual(['after']);
  });

  it('a write made while the connection is in a transaction is not deferred past it', async () => {
    const { db, other } = pair();
    db.prepare('BEGIN').run();
    let done = false;
    const write = commitGrouped(db, insert(db, 'late')).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false); // it waits for the transaction it did not open (sqlite-transaction-gate.ts)
    db.prepare('COMMIT').run();
    await write;
    expect(ids(other)).toEqual(['late']);
  });

  it('runs writes in the order they were made, also when another transaction opened between them', async () => {
    const { db, other } = pair();
    await commitGrouped(db, insert(db, 'row', 'first'));
    // Another request's interactive transaction, as Prisma's adapter opens one (sqlite-transaction-gate.ts).
    const adapter = {
      startTransaction: () => {
        db.prepare('BEGIN').run();
        return Promise.resolve({ commit: () => Promise.resolve(void db.prepare('COMMIT').run()), rollback: () => Promise.resolve() });
      },
    };
    trackTransactions(adapter, db);
    const update = (v: string) => () => void db.prepare('UPDATE "T" SET "v" = ? WHERE "id" = ?').run(v, 'row');
    // The caller does not wait for its first write before its second (lib/oidc/held-writes.ts), and
    // the transaction begins in between, before the first one's group ran.
    const first = commitGrouped(db, update('second'));
    const transaction = await adapter.startTransaction();
    const second = commitGrouped(db, update('third'));
    await new Promise((r) => setTimeout(r, 20));
    await transaction.commit();
    await Promise.all([first, second]);
    expect(other.prepare('SELECT "v" FROM "T" WHERE "id" = ?').get('row')).toEqual({ v: 'third' });
  });

  it('each caller hears what the same writes made one by one would answer, and the same rows remain', async () => {
    type Op = { kind: 'insert' | 'delete' | 'fail'; id: string };
    const op = fc.record({ kind: fc.constantFrom<Op['kind']>('insert', 'delete', 'fail'), id: fc.constantFrom('p', 'q', 'r') });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }), async (turns) => {
        const { db } = pair();
        const { db: reference } = pair();
        const work = (target: Database.Database, o: Op) => () => {
          if (o.kind === 'insert') insert(target, o.id)();
          else if (o.kind === 'delete') target.prepare('DELETE FROM "T" WHERE "id" = ?').run(o.id);
          else {
            target.prepare('DELETE FROM "T" WHERE "id" = ?').run(o.id);
            throw new Error('refused');
          }
        };
        for (const ops of turns) {
          const expected = ops.map((o) => {
            try {
              reference.transaction(work(reference, o))(); // one write: all of it or nothing
              return 'fulfilled';
            } catch {
              return 'rejected';
            }
          });
          const outcomes = await Promise.allSettled(ops.map((o) => commitGrouped(db, work(db, o))));
          expect(outcomes.map((x) => x.status)).toEqual(expected);
          expect(ids(db)).toEqual(ids(reference));
        }
        db.close();
        reference.close();
      }),
      { numRuns: 60 },
    );
  });
});
