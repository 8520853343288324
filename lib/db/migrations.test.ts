import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Dialect } from './dialect';
import { migratePostgres, migrateSqlite, storeMigrations, type MigrationScript, type Store } from './migrate';
import { configureSqlite } from './sqlite-pragmas';

// Guards the committed SQL (docs/environment.md "Prisma 7"): applied by our own runner to a fresh
// database, it must leave nothing for the schema engine to do against the current models. A model
// edit without `npm run db:sql` fails here.

type Scratch = { dialect: Dialect; location: string; drop(): Promise<void> };
type SqlTools = {
  readMigrations(store: Store, dialect: Dialect): MigrationScript[];
  schemaText(store: Store, dialect: Dialect): string;
  generatedModuleText(): string;
  createScratchDatabase(dialect: Dialect): Promise<Scratch>;
  diffDatabaseToSchema(dialect: Dialect, location: string, schema: string): Promise<string>;
  postgresAdminUrl(): string;
};
// A computed specifier: the script is plain JavaScript without type declarations.
const scriptPath = fileURLToPath(new URL('../../scripts/generate-sql.mjs', import.meta.url));
const tools = (await import(scriptPath)) as SqlTools;

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: tools.postgresAdminUrl(), connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
const pgUp = await postgresReachable();
if (!pgUp) console.warn(`PostgreSQL unreachable at ${tools.postgresAdminUrl()}: PostgreSQL migration checks skipped`);

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Applies the embedded migrations with the product's runner; returns what each run applied. */
async function applyTwice(scratch: Scratch, list: readonly MigrationScript[]): Promise<[string[], string[]]> {
  if (scratch.dialect === 'sqlite') {
    const db = new Database(scratch.location);
    try {
      configureSqlite(db);
      return [migrateSqlite(db, list), migrateSqlite(db, list)];
    } finally {
      db.close();
    }
  }
  return withClient(scratch.location, async (c) => [await migratePostgres(c, list), await migratePostgres(c, list)]);
}

const cases: { store: Store; dialect: Dialect }[] = [];
for (const store of ['global', 'realm'] as const) {
  for (const dialect of ['sqlite', 'postgresql'] as const) cases.push({ store, dialect });
}

describe('committed migrations', () => {
  it('are embedded verbatim in lib/db/migrations/generated.ts', () => {
    const generated = readFileSync(new URL('./migrations/generated.ts', import.meta.url), 'utf8');
    expect(generated).toBe(tools.generatedModuleText());
    for (const { store, dialect } of cases) {
      expect(storeMigrations(store, dialect).map((m) => m.id)).toEqual(tools.readMigrations(store, dialect).map((m) => m.id));
      expect(storeMigrations(store, dialect)[0]?.id).toBe('0001_init');
    }
  });

  it.each(cases)('produce exactly the $store models on $dialect', async ({ store, dialect }) => {
    if (dialect === 'postgresql' && !pgUp) return;
    const scratch = await tools.createScratchDatabase(dialect);
    try {
      const list = storeMigrations(store, dialect);
      const [first, second] = await applyTwice(scratch, list);
      expect(first).toEqual(list.map((m) => m.id));
      expect(second).toEqual([]);
      expect(await tools.diffDatabaseToSchema(dialect, scratch.location, tools.schemaText(store, dialect))).toBe('');
    } finally {
      await scratch.drop();
    }
  });

  it('notices a model change (the check above is not vacuous)', async () => {
    const scratch = await tools.createScratchDatabase('sqlite');
    try {
      await applyTwice(scratch, storeMigrations('realm', 'sqlite'));
      const changed = tools.schemaText('realm', 'sqlite').replace('model User {', 'model User {\n  nickname String?');
      expect(await tools.diffDatabaseToSchema('sqlite', scratch.location, changed)).toContain('ADD COLUMN "nickname"');
    } finally {
      await scratch.drop();
    }
  });
});

describe.skipIf(!pgUp)('PostgreSQL runner', () => {
  it('applies each migration once when two processes race', async () => {
    const scratch = await tools.createScratchDatabase('postgresql');
    try {
      const list = storeMigrations('realm', 'postgresql');
      const runs = await Promise.all([0, 1].map(() => withClient(scratch.location, (c) => migratePostgres(c, list))));
      expect(runs.flat().sort()).toEqual(list.map((m) => m.id));
      const rows = await withClient(scratch.location, (c) => c.query('SELECT id FROM _gatehouse_migrations'));
      expect(rows.rowCount).toBe(list.length);
    } finally {
      await scratch.drop();
    }
  });
});

describe('SQLite runner', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-migrate-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const init: MigrationScript = {
    id: '0001_init',
    sql: `CREATE TABLE "Parent" ("id" TEXT NOT NULL PRIMARY KEY, "name" TEXT);
CREATE TABLE "Child" ("id" TEXT NOT NULL PRIMARY KEY, "parentId" TEXT NOT NULL,
  CONSTRAINT "Child_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Parent" ("id") ON DELETE CASCADE);
INSERT INTO "Parent" VALUES ('p1', NULL);
INSERT INTO "Child" VALUES ('c1', 'p1');`,
  };
  // What the schema engine writes for a column change SQLite cannot ALTER (copy, drop, rename).
  const redefine: MigrationScript = {
    id: '0002_redefine',
    sql: `PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Parent" ("id" TEXT NOT NULL PRIMARY KEY, "name" TEXT NOT NULL DEFAULT '');
INSERT INTO "new_Parent" ("id", "name") SELECT "id", coalesce("name", '') FROM "Parent";
DROP TABLE "Parent";
ALTER TABLE "new_Parent" RENAME TO "Parent";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;`,
  };

  function open(name: string): Database.Database {
    const db = new Database(join(dir, name));
    configureSqlite(db);
    return db;
  }

  it('keeps child rows through a table redefinition (foreign keys off around the transaction)', () => {
    const db = open('redefine.db');
    try {
      expect(migrateSqlite(db, [init, redefine])).toEqual(['0001_init', '0002_redefine']);
      expect(db.prepare('SELECT count(*) AS n FROM "Child"').get()).toEqual({ n: 1 });
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      db.close();
    }
  });

  it('would lose them inside a plain transaction (why the runner switches the pragma)', () => {
    const db = open('naive.db');
    try {
      db.exec(init.sql);
      db.transaction(() => db.exec(redefine.sql))();
      expect(db.prepare('SELECT count(*) AS n FROM "Child"').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('rolls back a migration that leaves foreign key violations, recording nothing', () => {
    const db = open('violation.db');
    const orphan: MigrationScript = { id: '0002_orphan', sql: `INSERT INTO "Child" VALUES ('c2', 'missing');` };
    try {
      migrateSqlite(db, [init]);
      expect(() => migrateSqlite(db, [init, orphan])).toThrow(/foreign key/);
      expect(db.prepare('SELECT count(*) AS n FROM "Child"').get()).toEqual({ n: 1 });
      expect(db.prepare('SELECT id FROM _gatehouse_migrations').pluck().all()).toEqual(['0001_init']);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      db.close();
    }
  });
});
