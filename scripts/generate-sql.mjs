// `npm run db:sql [name]`: writes the next SQL migration for each store (global, realm) and dialect
// (sqlite, postgresql) when the models changed, then regenerates lib/db/migrations/generated.ts.
//
// Why this shape (docs/environment.md "Prisma 7"): `prisma migrate` cannot run offline here, so the DDL
// comes from @prisma/schema-engine-wasm. "Before" is the schema the committed migrations really
// produce: they are applied to a scratch database (a temporary SQLite file, or a temporary
// PostgreSQL database on the DATABASE_URL server) and the engine diffs that live database against
// the models. A hand-edited migration therefore counts as what it does, not as what was intended.
// The engine's own "migrations" source is unusable with these adapters (it sends a whole script
// through one better-sqlite3 statement), hence the scratch database.
//
// The functions are exported for lib/db/migrations.test.ts, which proves the committed SQL matches
// the models.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as engineBindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import { schemaText } from './prisma-generate.mjs';

export { schemaText };
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const stores = ['global', 'realm'];
export const dialects = ['sqlite', 'postgresql'];
const MIGRATIONS_TABLE = '_gatehouse_migrations';
const MIGRATION_FILE = /^(\d{4})_([a-z0-9_]+)\.sql$/;
const generatedModule = join(root, 'lib', 'db', 'migrations', 'generated.ts');

export function migrationsDir(store, dialect) {
  return join(root, 'prisma', 'migrations', store, dialect);
}

/** The committed migrations of one store and dialect, in order: `[{ id, sql }]`. */
export function readMigrations(store, dialect) {
  let files;
  try {
    files = readdirSync(migrationsDir(store, dialect));
  } catch {
    return [];
  }
  return files
    .filter((f) => MIGRATION_FILE.test(f))
    .sort()
    .map((f) => ({ id: f.slice(0, -'.sql'.length), sql: readFileSync(join(migrationsDir(store, dialect), f), 'utf8') }));
}

/** The server used for scratch databases: the configured one, else the local development server. */
export function postgresAdminUrl() {
  return process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

// The wasm module is loaded by hand: its package entry imports the .wasm file as an ES module,
// which Node 20 only allows behind --experimental-wasm-modules.
let enginePromise;
function loadEngine() {
  enginePromise ??= (async () => {
    // The engine reports panics through this global (what Prisma's CLI installs).
    globalThis.PRISMA_WASM_PANIC_REGISTRY ??= {
      message: '',
      set_message(m) {
        this.message = m;
      },
      get() {
        return this.message;
      },
    };
    const entry = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm');
    const bytes = readFileSync(join(dirname(entry), 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': engineBindings });
    engineBindings.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start();
    return engineBindings.SchemaEngine;
  })();
  return enginePromise;
}

// adapter-pg 7.10 rejects result columns of PostgreSQL's internal "char" type (OID 18), which the
// engine's catalog queries return (relkind, contype...). pg already hands them over as strings, so
// relabelling them as text (OID 25) is lossless. Only this development tool needs it.
class CharAsTextClient extends pg.Client {
  query(...args) {
    const relabel = (res) => {
      for (const r of Array.isArray(res) ? res : [res]) for (const f of r?.fields ?? []) if (f.dataTypeID === 18) f.dataTypeID = 25;
      return res;
    };
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last];
      args[last] = (err, res) => callback(err, err ? res : relabel(res));
      return super.query(...args);
    }
    const result = super.query(...args);
    return result && typeof result.then === 'function' ? result.then(relabel) : result;
  }
}

/** Creates an empty scratch database: `{ dialect, location, drop() }` (location: file path or URL). */
export async function createScratchDatabase(dialect) {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-sql-'));
    const location = join(dir, 'scratch.db');
    new Database(location).close();
    return { dialect, location, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `gh_scratch_${randomBytes(8).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  admin.on('error', () => {}); // a dropped socket surfaces on the next query; never crash the tool
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${name}`;
  const drop = async () => {
    const c = new pg.Client({ connectionString: postgresAdminUrl() });
    c.on('error', () => {});
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await c.end();
    }
  };
  return { dialect, location: url.toString(), drop };
}

/** Applies SQL the way lib/db/migrate.ts does (SQLite: foreign keys off around the transaction). */
export async function applySql(scratch, sql) {
  if (scratch.dialect === 'sqlite') {
    const db = new Database(scratch.location);
    try {
      db.pragma('foreign_keys = OFF');
      db.transaction(() => db.exec(sql))();
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: scratch.location });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(sql);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

/**
 * The SQL that takes the live database at `location` to the Prisma schema `schema`, or '' when
 * they already agree.
 */
export async function diffDatabaseToSchema(dialect, location, schema) {
  const SchemaEngine = await loadEngine();
  let pool;
  let base;
  if (dialect === 'sqlite') {
    base = new PrismaBetterSqlite3({ url: `file:${location}` });
  } else {
    pool = new pg.Pool({ connectionString: location, max: 1, Client: CharAsTextClient });
    pool.on('error', () => {});
    base = new PrismaPg(pool);
  }
  // The engine does not dispose what it connects; keep the adapters to close them afterwards.
  const opened = [];
  const factory = {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: async () => {
      const a = await base.connect();
      opened.push(a);
      return a;
    },
    connectToShadowDb: () => base.connectToShadowDb(),
  };
  const file = { path: 'schema.prisma', content: schema };
  const engine = await SchemaEngine.new({ datamodels: [[file.path, schema]] }, () => {}, bindMigrationAwareSqlAdapterFactory(factory));
  try {
    const result = await engine.diff({
      from: { tag: 'schemaDatasource', files: [file], configDir: root },
      to: { tag: 'schemaDatamodel', files: [file] },
      script: true,
      exitCode: true, // 0: no difference, 2: stdout holds the migration
      // Our bookkeeping table (lib/db/migrate.ts) is not part of the models.
      // SQLite wants bare names, PostgreSQL schema-qualified ones.
      filters: { externalTables: [dialect === 'sqlite' ? MIGRATIONS_TABLE : `public.${MIGRATIONS_TABLE}`], externalEnums: [] },
    });
    return result.exitCode === 2 ? (result.stdout ?? '') : '';
  } finally {
    engine.free();
    for (const a of opened) await a.dispose().catch(() => {});
    await pool?.end();
  }
}

/** The SQL needed on top of the committed migrations of (store, dialect), or ''. */
export async function pendingSql(store, dialect) {
  const scratch = await createScratchDatabase(dialect);
  try {
    for (const m of readMigrations(store, dialect)) await applySql(scratch, m.sql);
    const sql = await diffDatabaseToSchema(dialect, scratch.location, schemaText(store, dialect));
    if (sql) {
      // Self-check: the new script must apply cleanly and leave nothing to do.
      await applySql(scratch, sql);
      const rest = await diffDatabaseToSchema(dialect, scratch.location, schemaText(store, dialect));
      if (rest) throw new Error(`${store}/${dialect}: the generated migration does not converge:\n${rest}`);
    }
    return sql;
  } finally {
    await scratch.drop();
  }
}

/** The text of lib/db/migrations/generated.ts for the migrations currently on disk. */
export function generatedModuleText() {
  const body = stores
    .map((store) => {
      const perDialect = dialects.map((dialect) => {
        const items = readMigrations(store, dialect).map((m) => `      { id: ${JSON.stringify(m.id)}, sql: ${JSON.stringify(m.sql)} },`);
        return `    ${dialect}: [\n${items.join('\n')}\n    ],`;
      });
      return `  ${store}: {\n${perDialect.join('\n')}\n  },`;
    })
    .join('\n');
  return `// Generated by scripts/generate-sql.mjs from prisma/migrations/. Do not edit: run \`npm run db:sql\`.
// The SQL is embedded so that bundlers ship it with the code (no file reads at run time).
export type MigrationScript = { id: string; sql: string };

export const migrations: Record<'global' | 'realm', Record<'sqlite' | 'postgresql', MigrationScript[]>> = {
${body}
};
`;
}

async function main() {
  const requested = process.argv[2];
  if (requested !== undefined && !/^[a-z0-9_]+$/.test(requested)) throw new Error('Migration name: lower-case letters, digits and _ only');
  // Everything is computed before anything is written: a failure (PostgreSQL down) leaves the
  // migrations folder and the embedded module as they were.
  const pending = [];
  for (const store of stores) {
    for (const dialect of dialects) pending.push({ store, dialect, sql: await pendingSql(store, dialect) });
  }
  for (const { store, dialect, sql } of pending) {
    if (!sql) {
      console.log(`${store}/${dialect}: up to date`);
      continue;
    }
    const existing = readMigrations(store, dialect);
    const last = existing.at(-1);
    const next = String((last ? Number(last.id.slice(0, 4)) : 0) + 1).padStart(4, '0');
    const name = requested ?? (existing.length === 0 ? 'init' : 'change');
    mkdirSync(migrationsDir(store, dialect), { recursive: true });
    const file = join(migrationsDir(store, dialect), `${next}_${name}.sql`);
    writeFileSync(file, `-- Generated by scripts/generate-sql.mjs (${store}, ${dialect}). Review before committing.\n${sql}`);
    console.log(`${store}/${dialect}: wrote ${file.slice(root.length + 1)}`);
  }
  mkdirSync(dirname(generatedModule), { recursive: true });
  writeFileSync(generatedModule, generatedModuleText());
  console.log(`wrote ${generatedModule.slice(root.length + 1)}`);
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    if (err?.code === 'ECONNREFUSED' || err?.code === '28000') {
      console.error(
        `The PostgreSQL migrations are computed on a scratch database: start PostgreSQL or point DATABASE_URL at one (tried ${postgresAdminUrl()}).`,
      );
    }
    process.exitCode = 1;
  });
}
