// Shapes shared by the global setup (vitest main process) and the test files (workers).

export type Engine = 'sqlite' | 'postgres';
export type ServerMode = 'prod' | 'dev';

/** Where a server keeps its data: a SQLite data directory, or a PostgreSQL global database. */
export type Storage = {
  engine: Engine;
  /** GATEHOUSE_DATA_DIR (used for SQLite files and the development outbox). */
  dataDir: string;
  /** DATABASE_URL of the global store (PostgreSQL only). */
  databaseUrl?: string;
  /** Name of the global database (PostgreSQL only). */
  databaseName?: string;
  /** The role the servers connect as, owner of every database of this store (PostgreSQL only). */
  role?: string;
};

export type AdminAccount = { userName: string; email: string; password: string };

/** What the global setup hands to every test file (vitest `provide`/`inject`). */
export type SuiteInfo = {
  /** Where the tests send requests: the server, or the round-robin proxy in front of several. */
  port: number;
  /** How many instances serve behind `port` (GATEHOUSE_TEST_INSTANCES); per-instance caches are counted per instance. */
  instances: number;
  /**
   * Each instance's own port, behind the proxy: for what needs one instance throughout (a hub
   * connection negotiates on one and must use its transport on the same one; there is no stickiness).
   */
  instancePorts: number[];
  mode: ServerMode;
  storage: Storage;
  /** REDIS_URL the servers use, if any. */
  redisUrl?: string;
  /** The environment the main server runs with: the CLI and extra servers sharing its store reuse it. */
  env: Record<string, string>;
  /** Temp root of this run: data directories (removed at teardown). */
  runDir: string;
  /** Server logs of this run (kept after the run). */
  logDir: string;
  /** File holding the main server's pid (an extra dev server may restart the main one). */
  pidFile: string;
  /** Administrator of the control plane, set with the CLI, signed in once for all files. */
  admin: AdminAccount;
  adminCookie: string;
  /** Where the run's SMTP capture writes every mail the servers send (read with mailbox.ts). */
  mailDir: string;
};

declare module 'vitest' {
  export interface ProvidedContext {
    gatehouse: SuiteInfo;
  }
}
