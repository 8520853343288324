import { Worker } from 'node:worker_threads';
import { logError } from '../log/logger';
import { shared } from '../runtime/shared';

// WAL checkpoints of the SQLite databases, off the event loop. In WAL mode with synchronous=NORMAL a
// commit writes its pages to the WAL without an fsync; the fsyncs come when the WAL is copied back
// into the database (a checkpoint). SQLite's automatic checkpoint runs inside the commit that
// crosses its threshold (1,000 pages), on the committing connection: the event loop, blocked for
// two fsyncs every hundred or so writes. It made a token write cost 95 µs where the write alone
// costs 60 (benchmarks/README.md). SQLite's documentation suggests running checkpoints on another
// thread instead; this worker does, on a connection of its own to each open database, as a PASSIVE
// checkpoint (it never blocks a reader or writer, and stops where a reader still needs the WAL).
// Durability is unchanged: the same pages are written and synced, by another thread.
//
// The event loop's own connections keep an automatic checkpoint at a higher threshold as a backstop
// (a worker that died or fell far behind), so the WAL stays bounded whatever happens here.

/** Automatic checkpoint threshold (pages) of the event loop's connections, while this worker runs. */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 10_000;
/** How often the worker checkpoints each database it watches. */
const INTERVAL_MS = 200;

// Plain JavaScript evaluated in the worker: a file would have to be found next to whichever bundle
// runs this module (server.ts's, or Next's). `require` resolves from the working directory, which
// is the project folder the server runs in (as for Next).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');
const open = new Map(); // path -> { db, holders }
parentPort.on('message', (m) => {
  if (m.type === 'watch') {
    const entry = open.get(m.path);
    if (entry) entry.holders++;
    else {
      try {
        const db = new Database(m.path, { fileMustExist: true, timeout: 0 });
        open.set(m.path, { db, holders: 1 });
      } catch (e) {
        parentPort.postMessage({ type: 'error', path: m.path, message: String(e && e.message) });
      }
    }
  } else if (m.type === 'unwatch') {
    const entry = open.get(m.path);
    if (entry && --entry.holders === 0) {
      open.delete(m.path);
      try { entry.db.close(); } catch {}
    }
    parentPort.postMessage({ type: 'unwatched', id: m.id });
  }
});
setInterval(() => {
  for (const [path, entry] of open) {
    try { entry.db.pragma('wal_checkpoint(PASSIVE)'); }
    catch (e) { if (!/busy|locked/i.test(String(e && e.message))) parentPort.postMessage({ type: 'error', path, message: String(e && e.message) }); }
  }
}, workerData.intervalMs);
`;

type State = {
  worker: Worker | null;
  /** Paths watched, with how many connections hold each (a realm open in the pool and in a sweep). */
  holders: Map<string, number>;
  /** Unwatch answers awaited, by request id. */
  pending: Map<number, () => void>;
  nextId: number;
  failed: boolean;
};

const state = () => shared<State>('db.wal-checkpoints', () => ({ worker: null, holders: new Map(), pending: new Map(), nextId: 1, failed: false }));

function worker(s: State): Worker | null {
  if (s.worker || s.failed) return s.worker;
  const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { intervalMs: INTERVAL_MS } });
  w.unref(); // never keeps the process alive
  w.on('message', (m: { type: string; id?: number; path?: string; message?: string }) => {
    if (m.type === 'unwatched' && m.id !== undefined) {
      s.pending.get(m.id)?.();
      s.pending.delete(m.id);
    } else if (m.type === 'error') logError('WAL checkpoint failed', new Error(m.message), { database: m.path });
  });
  const fail = (err: unknown) => {
    // The backstop threshold of the event loop's connections keeps the WAL bounded from here on.
    if (!s.failed) logError('the WAL checkpoint worker stopped; checkpoints fall back to SQLite’s own', err);
    s.failed = true;
    s.worker = null;
    for (const release of s.pending.values()) release();
    s.pending.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => {
    if (s.worker === w) fail(new Error(`exit code ${code}`));
  });
  s.worker = w;
  return w;
}

/** Starts checkpointing a database file an event-loop connection has open. */
export function watchWal(path: string): void {
  const s = state();
  s.holders.set(path, (s.holders.get(path) ?? 0) + 1);
  worker(s)?.postMessage({ type: 'watch', path });
}

/**
 * Stops checkpointing a database once its event-loop connection closed; resolves when the worker has
 * closed its own connection too (a dropped realm's files are deleted after this).
 */
export function unwatchWal(path: string): Promise<void> {
  const s = state();
  const held = s.holders.get(path) ?? 0;
  if (held <= 1) s.holders.delete(path);
  else s.holders.set(path, held - 1);
  const w = s.worker;
  if (!w || held === 0) return Promise.resolve();
  const id = s.nextId++;
  return new Promise<void>((resolve) => {
    s.pending.set(id, resolve);
    w.postMessage({ type: 'unwatch', path, id });
  });
}

/** Starts the worker if it is not running; whether it runs (the event loop's connections then keep only the backstop threshold). */
export function startWalCheckpoints(): boolean {
  const s = state();
  return worker(s) !== null;
}

/** The paths watched now (tests). */
export function watchedWalPaths(): string[] {
  return [...state().holders.keys()];
}
