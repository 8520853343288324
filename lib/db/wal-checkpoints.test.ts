import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { unwatchWal, startWalCheckpoints, watchedWalPaths, watchWal } from './wal-checkpoints';

// The checkpoint worker against real SQLite files: it copies the WAL back into the database without
// the event loop's connection checkpointing, and closes its connection when asked, so that the last
// connection to close (which deletes the WAL) is never one the caller cannot see.

const dir = mkdtempSync(join(tmpdir(), 'gh-wal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function walDatabase(name: string): { path: string; db: Database.Database } {
  const path = join(dir, name);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0'); // only the worker checkpoints
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  return { path, db };
}

const fill = (db: Database.Database) =>
  db.transaction(() => {
    for (let i = 0; i < 2000; i++) db.prepare('INSERT INTO t (v) VALUES (?)').run('x'.repeat(200));
  })();

describe('WAL checkpoints off the event loop', () => {
  it('copies a watched database’s WAL into the database file', async () => {
    expect(startWalCheckpoints()).toBe(true);
    const { path, db } = walDatabase('watched.db');
    fill(db);
    const before = statSync(path).size;
    watchWal(path);
    // The rows' pages reach the database file without this connection checkpointing.
    await vi.waitFor(() => expect(statSync(path).size).toBeGreaterThan(before + 200_000), { timeout: 5000 });
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2000 });
    db.close();
    await unwatchWal(path);
    expect(watchedWalPaths()).not.toContain(path);
  });

  it('has closed its own connection when unwatch resolves', async () => {
    const { path, db } = walDatabase('released.db');
    watchWal(path);
    watchWal(path); // two holders (a pooled client and a sweep's)
    const before = statSync(path).size;
    fill(db);
    await vi.waitFor(() => expect(statSync(path).size).toBeGreaterThan(before + 200_000), { timeout: 5000 }); // the worker has it open
    db.close();
    await unwatchWal(path);
    expect(watchedWalPaths()).toContain(path); // one holder left: still watched
    expect(existsSync(`${path}-wal`)).toBe(true); // the worker's connection still has the file open
    await unwatchWal(path);
    // The worker's connection was the last: closing it checkpointed and removed the WAL.
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(new Database(path, { readonly: true }).prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2000 });
  });

  it('answers an unwatch of a path it never watched at once', async () => {
    await expect(unwatchWal(join(dir, 'never.db'))).resolves.toBeUndefined();
  });
});
