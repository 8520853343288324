// Benchmark settings, from flags and environment variables (README-style help: `npm run bench -- --help`).
export type BenchOptions = {
  quick: boolean;
  /** Seconds of measurement per throughput row (plus a 1-second warm-up). */
  duration: number;
  /** Rounds of each OAuth metric, Gatehouse and the bare engine back to back in each (scenario-oauth.ts). */
  oauthRounds: number;
  /** The OAuth rows to run (`BENCH_OAUTH_ROWS`); every row by default. */
  oauthRows: Set<OAuthRowName>;
  connections: number;
  /** Realms (besides the control plane) for the fleet measurement on SQLite; 0 skips it. */
  realms: number;
  /** The same on PostgreSQL; 0 skips the fleet part there (realm creation is still timed). */
  pgRealms: number;
  /** Realm creations timed one after another for the median. */
  creates: number;
  /** Realms whose administrator signs in, for GET /api/account/me across realms. */
  sessionRealms: number;
  postgres: boolean;
  /** An existing PostgreSQL server (postgres://...) instead of a private throw-away cluster. */
  databaseUrl: string | undefined;
  build: boolean;
  /** The parts to run (`--only=a,b`); every part by default. */
  only: Set<BenchPart>;
  /** Accounts with TOTP for the password + TOTP sign-in (each gives ~1 sign-in per 30 s step). */
  totpUsers: number;
  /** Concurrent flows for the e-mail code sign-in, whose request is padded to ≥ 400 ms. */
  otpWorkers: number;
  /** Security-log entries of the person whose data is exported, one measurement each. */
  exportEntries: number[];
  /** Idle WebSocket connections the hub bench holds on one instance. */
  hubConnections: number;
  /** Connected consoles that hear every change in the hub's delivery rows. */
  hubConsoles: number;
  /** Changes (users created over the API) per delivery row. */
  hubChanges: number;
  /** Run servers from source (server.ts through tsx, development mode) instead of the build. */
  source: boolean;
};

export const OAUTH_ROW_NAMES = ['cc', 'refresh', 'userinfo', 'introspection-opaque', 'introspection-jwt'] as const;
export type OAuthRowName = (typeof OAUTH_ROW_NAMES)[number];

export const BENCH_PARTS = [
  'throughput',
  'login',
  'argon2',
  'realms',
  'postgres',
  'totp',
  'email-otp',
  'passkey',
  'forgot-password',
  'oauth',
  'external-oidc',
  'ldap',
  'export',
  'manifest',
  'hub',
  'saml-acs',
] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];

export const HELP = `npm run bench [-- options]

  --quick            short run: 3 s rows, 100 realms, 5 timed creates
  --no-postgres      skip every PostgreSQL measurement
  --build            run npm run build first (done anyway when dist/server.js is missing)
  --only=a,b         run only these parts: throughput, login, argon2, realms, postgres (the
                     PostgreSQL phase), totp, email-otp, passkey, forgot-password (the sign-in
                     flows, on a server with GATEHOUSE_RATE_LIMIT_SCALE=0), oauth (client
                     credentials, refresh and introspection beside a bare oidc-provider),
                     external-oidc (sign-in through an upstream OIDC provider beside the
                     upstream alone), ldap (directory sign-in beside a bare ldapts bind),
                     export (the data-export ZIP of a person with 10,000 and 100,000
                     security-log entries, in-process: time and peak RSS; needs no build),
                     manifest (plan, apply and export of a realm manifest with 50 Apps, 500
                     roles, 500 groups and 200 clients, into an empty realm and into one that
                     already matches; in-process, needs no build), hub (the real-time hub
                     /signalr/ui: idle WebSocket connections held and the server's RSS, changes
                     delivered per second to connected consoles and the delay from the change to
                     its delivery, on one instance and across two sharing Redis), saml-acs
                     (hostile posts to the SAML ACS: server CPU per post, and GET /health
                     p50/p99 alone and while 4 clients post them)
  --source           run the servers from source (server.ts through tsx, development mode)
                     instead of the production build; nothing is built

Environment:
  BENCH_DURATION=8          seconds per throughput row
  BENCH_CONNECTIONS=10      autocannon connections
  BENCH_OAUTH_ROUNDS=3      rounds of each OAuth row (Gatehouse and the bare engine in turn;
                            the verdict is the median of the rounds' ratios; --quick: 1)
  BENCH_OAUTH_ROWS=a,b      run only these OAuth rows: cc, refresh, userinfo,
                            introspection-opaque, introspection-jwt (all by default)
  BENCH_REALMS=1000         fleet size on SQLite (0 skips)
  BENCH_PG_REALMS=250       fleet size on PostgreSQL (0 skips; 1000 adds ~6 min and 8 GB of disk)
  BENCH_CREATES=10          timed sequential realm creations per database
  BENCH_SESSION_REALMS=150  realms whose admin signs in for "me across realms"
  BENCH_TOTP_USERS=200      TOTP accounts the password + TOTP sign-in rotates over
  BENCH_OTP_WORKERS=32      concurrent e-mail code sign-ins (the request is padded to ≥ 400 ms)
  BENCH_EXPORT_ENTRIES=10000,100000  security-log entries of the exported person, one row each
  BENCH_HUB_CONNECTIONS=10000  idle hub connections held (20 per session: N/20 sign-ins)
  BENCH_HUB_CONSOLES=1000   connected consoles hearing the changes
  BENCH_HUB_CHANGES=200     users created over the API per delivery row
  BENCH_REDIS_URL=redis://127.0.0.1:6379  the Redis of the hub's two-instance row
  BENCH_NODE_ARGS="--flag"  extra Node.js flags for every server the bench starts (an A/B of a flag)
  BENCH_DATABASE_URL=postgres://...  use this server (databases gh_bench_* are created and dropped)
                            instead of a private cluster started with initdb in a temp dir
`;

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
}

function oauthRowNames(): Set<OAuthRowName> {
  const raw = process.env.BENCH_OAUTH_ROWS;
  if (raw === undefined || raw === '') return new Set(OAUTH_ROW_NAMES);
  const names = raw.split(',').map((v) => v.trim());
  for (const name of names) {
    if (!(OAUTH_ROW_NAMES as readonly string[]).includes(name))
      throw new Error(`unknown OAuth row ${name} in BENCH_OAUTH_ROWS (one of ${OAUTH_ROW_NAMES.join(', ')})`);
  }
  return new Set(names as OAuthRowName[]);
}

function list(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (!values.length || values.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`${name} must be positive integers, separated by commas`);
  return values;
}

export function parseOptions(argv: string[]): BenchOptions | 'help' {
  const onlyArg = argv.find((a) => a.startsWith('--only='));
  const flags = new Set(argv.filter((a) => a !== onlyArg));
  if (flags.has('--help') || flags.has('-h')) return 'help';
  for (const f of flags) if (!['--quick', '--no-postgres', '--build', '--source'].includes(f)) throw new Error(`unknown option ${f}\n\n${HELP}`);
  const only = new Set<BenchPart>(BENCH_PARTS);
  if (onlyArg) {
    only.clear();
    for (const name of onlyArg.slice('--only='.length).split(',').filter(Boolean)) {
      if (!(BENCH_PARTS as readonly string[]).includes(name)) throw new Error(`unknown part ${name} in --only (one of ${BENCH_PARTS.join(', ')})`);
      only.add(name as BenchPart);
    }
  }
  if (flags.has('--no-postgres')) only.delete('postgres');
  const quick = flags.has('--quick');
  const realms = int('BENCH_REALMS', quick ? 100 : 1000);
  return {
    quick,
    duration: int('BENCH_DURATION', quick ? 3 : 8),
    oauthRounds: Math.max(1, int('BENCH_OAUTH_ROUNDS', quick ? 1 : 3)),
    oauthRows: oauthRowNames(),
    connections: int('BENCH_CONNECTIONS', 10),
    realms,
    // A thousand PostgreSQL databases take about 4 minutes to create and 8 GB of disk (minutes more
    // to delete): the default fleet there is smaller, still past the realm pool's LRU of 100.
    pgRealms: int('BENCH_PG_REALMS', Math.min(realms, 250)),
    creates: Math.max(1, int('BENCH_CREATES', quick ? 5 : 10)),
    sessionRealms: int('BENCH_SESSION_REALMS', quick ? 30 : 150),
    postgres: only.has('postgres'),
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
    build: flags.has('--build'),
    only,
    totpUsers: Math.max(1, int('BENCH_TOTP_USERS', 200)),
    otpWorkers: Math.min(32, Math.max(1, int('BENCH_OTP_WORKERS', 32))),
    exportEntries: list('BENCH_EXPORT_ENTRIES', quick ? [10_000] : [10_000, 100_000]),
    hubConnections: Math.max(1, int('BENCH_HUB_CONNECTIONS', quick ? 2_000 : 10_000)),
    hubConsoles: Math.max(1, int('BENCH_HUB_CONSOLES', quick ? 200 : 1_000)),
    hubChanges: Math.max(1, int('BENCH_HUB_CHANGES', quick ? 50 : 200)),
    source: flags.has('--source'),
  };
}
