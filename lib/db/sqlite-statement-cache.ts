import type BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

// Prisma's better-sqlite3 adapter prepares every statement it runs afresh (`db.prepare(sql)` on
// each query, then `.bind(args)`): SQLite parses and plans the same few dozen SQL texts again on
// every request, a measurable share of a sign-in's CPU. The adapter is handed this view of its
// database instead, whose `prepare` answers a statement kept per SQL text. A better-sqlite3 statement
// can be bound only once, so `bind` here does not bind: it keeps the arguments and passes them to
// each run. Everything else is the database itself.
//
// The adapter's use of a statement, which this covers (checked by the unit test against the adapter
// through a real Prisma client): `prepare(sql).bind(args)`, then `.reader`, `.run()`, `.columns()`
// and `.raw().all()`; and `prepare('BEGIN').run()`.
//
// These statements are kept apart from the ones Gatehouse runs itself (`sqliteStatement`,
// driver-handle.ts): Prisma's SQL texts vary (an IN list makes a text of its own), so they need a
// bounded LRU, while Gatehouse's are a fixed few; and a statement left in raw mode by the adapter
// must never answer arrays to Gatehouse's own `.get()`.

/** Distinct SQL texts kept per database; a query with a long IN list makes a text of its own. */
const STATEMENTS_PER_DATABASE = 256;

type Args = readonly unknown[];

class ReusedStatement {
  constructor(
    private readonly statement: BetterSqlite3.Statement,
    private readonly args: Args = [],
  ) {}

  get reader(): boolean {
    return this.statement.reader;
  }

  bind(args: Args): ReusedStatement {
    return new ReusedStatement(this.statement, args);
  }

  run(): BetterSqlite3.RunResult {
    return this.statement.run(...this.args);
  }

  columns(): BetterSqlite3.ColumnDefinition[] {
    return this.statement.columns();
  }

  // The mode is set on every use: the statement is shared by every caller of the same SQL text.
  raw(on = true): { all(): unknown[] } {
    return { all: () => this.statement.raw(on).all(...this.args) };
  }
}

/** The database with `prepare` answering kept statements; every other member is the database's own. */
export function withStatementCache(db: BetterSqlite3.Database): BetterSqlite3.Database {
  const kept = new LRUCache<string, BetterSqlite3.Statement>({ max: STATEMENTS_PER_DATABASE });
  const prepare = (sql: string) => {
    let statement = kept.get(sql);
    if (!statement) kept.set(sql, (statement = db.prepare(sql)));
    return new ReusedStatement(statement);
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
