import pg from 'pg';
import { startPostgresCluster } from '../e2e/shared/peers/postgres-cluster';
import { progress } from './table';

// The bench's PostgreSQL: by default a private throw-away cluster (initdb in the bench's temp dir,
// default settings, max_connections 100), so a thousand CREATE DATABASE and the connection counts
// neither disturb nor include anyone else's databases. BENCH_DATABASE_URL selects an existing
// server instead; then only the bench's own databases are dropped at the end.

export type PgServer = {
  /** URL of the server's `postgres` database, for DDL. */
  adminUrl: string;
  label: string;
  stop(): Promise<void>;
};

export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}

export async function startPostgres(tempDir: string, externalUrl: string | undefined): Promise<PgServer> {
  if (externalUrl) return { adminUrl: externalUrl, label: `server at ${new URL(externalUrl).host}`, stop: async () => undefined };
  progress('PostgreSQL: initdb of a private cluster');
  const cluster = await startPostgresCluster({ parentDir: tempDir });
  const version = await withClient(
    cluster.adminUrl,
    async (c) =>
      (await c.query<{ v: string }>("SELECT current_setting('server_version') || ', max_connections ' || current_setting('max_connections') AS v")).rows[0].v,
  );
  return { adminUrl: cluster.adminUrl, label: `private cluster on port ${cluster.port} (PostgreSQL ${version})`, stop: () => cluster.remove() };
}

/** Creates an empty database for a Gatehouse global store; answers its URL. */
export async function createDatabase(server: PgServer, name: string): Promise<string> {
  await withClient(server.adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The realm databases a global store lists (only these are ours on a shared server). */
export async function realmDatabasesOf(globalUrl: string): Promise<string[]> {
  return withClient(globalUrl, async (c) => (await c.query<{ databaseName: string }>('SELECT "databaseName" FROM "Realm"')).rows.map((r) => r.databaseName));
}

export type ConnectionCount = { bench: number; all: number; max: number };

/** Server connections to the given databases, to any database, and the server's ceiling. */
export async function connectionCount(server: PgServer, databases: string[]): Promise<ConnectionCount> {
  return withClient(server.adminUrl, async (c) => {
    const r = await c.query<{ bench: string; all: string; max: string }>(
      `SELECT count(*) FILTER (WHERE datname = ANY($1)) AS bench, count(*) FILTER (WHERE datname IS NOT NULL) AS all,
              current_setting('max_connections') AS max FROM pg_stat_activity WHERE pid <> pg_backend_pid()`,
      [databases],
    );
    return { bench: Number(r.rows[0].bench), all: Number(r.rows[0].all), max: Number(r.rows[0].max) };
  });
}

/** Drops the global store and every realm database it lists (a private cluster is simply removed). */
export async function dropGatehouseDatabases(server: PgServer, globalName: string, globalUrl: string): Promise<number> {
  const realms = await realmDatabasesOf(globalUrl).catch(() => [] as string[]);
  const names = [...realms, globalName];
  await withClient(server.adminUrl, async (c) => {
    for (const name of names) {
      if (/^[a-z0-9_]{1,63}$/.test(name)) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  });
  return names.length;
}
