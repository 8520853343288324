import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import proxyaddr from 'proxy-addr';
import { z } from 'zod';
import { parseAllowList, type AllowList } from '../outbound/address-policy';
import { originOf, type PublicBase } from '../web/public-origin';

// Every setting Gatehouse reads from the environment (CONTRACT.md "Running it"), parsed once and
// checked at start-up so a typo fails loudly instead of silently falling back. Nothing else reads
// process.env (lint: docs/architecture.md "Layers").

/** A positive integer, or unset when absent or empty. */
const positiveInt = z.union([z.literal('').transform(() => undefined), z.coerce.number().int().min(1)]).optional();

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  GATEHOUSE_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  GATEHOUSE_CONTROL_PLANE_SLUG: z.string().default('control'),
  GATEHOUSE_CONTROL_PLANE_DOMAINS: z.string().default('localhost,127.0.0.1'),
  GATEHOUSE_PUBLIC_SCHEME: z.enum(['http', 'https']).default('http'),
  GATEHOUSE_PUBLIC_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // Not in CONTRACT.md: a test hook that makes realm creation fail after the given step (spec 4.8),
  // so the integration suite can prove a failed create leaves nothing behind. Ignored in production.
  GATEHOUSE_TEST_FAIL_REALM_CREATE_AT: z.coerce.number().int().optional(),
  // Not in CONTRACT.md: multiplies every rate-limit ceiling (e.g. 100 for a load test from one
  // address); 0 turns rate limiting off. Per-realm overrides come with the realm settings.
  GATEHOUSE_RATE_LIMIT_SCALE: z.coerce.number().min(0).max(1_000_000).default(1),
  // Not in CONTRACT.md: how long an instance may serve a cached realm record (Host -> realm, its
  // revision). Every change clears it at once locally and, with Redis, everywhere; without Redis
  // other processes (a second instance, the CLI's key rotation) are seen within this time.
  GATEHOUSE_REALM_CACHE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  // The key that encrypts secrets at rest (32 bytes, base64), or a file holding it. Required in
  // production, so the key never sits beside the data it protects (crypto/secret-box.ts).
  GATEHOUSE_SECRET_KEY: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  GATEHOUSE_SECRET_KEY_FILE: z
    .string()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  // Not in CONTRACT.md: seconds between passes of the job that deletes expired one-time secrets and
  // OAuth engine rows (startup/purge/); 0 turns it off.
  GATEHOUSE_PURGE_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(900),
  // Not in CONTRACT.md: the realm database pool's size and idle time (db/realm-pool.ts); unset, the
  // pool keeps 100 SQLite or 40 PostgreSQL realms open and closes one idle for a minute.
  GATEHOUSE_REALM_POOL_MAX: positiveInt,
  GATEHOUSE_REALM_POOL_IDLE_MS: positiveInt,
  // Not in CONTRACT.md: `1` leaves out info lines (the benchmarks' server); warnings and errors stay.
  GATEHOUSE_LOG_QUIET: z.enum(['', '0', '1']).optional(),
  // CONTRACT.md "Outbound policy": the hosts, addresses and ranges outside the public internet that
  // outbound calls a tenant aims (login providers, client metadata) may reach (lib/outbound).
  GATEHOUSE_OUTBOUND_ALLOW: z.string().default(''),
  // The reverse proxies or load balancers in front (addresses, CIDR ranges, or proxy-addr's names
  // loopback, linklocal, uniquelocal), comma-separated: X-Forwarded-For is believed from them only.
  GATEHOUSE_TRUSTED_PROXIES: z.string().default(''),
  NODE_ENV: z.string().default('development'),
});

export type Settings = {
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  controlPlaneSlug: string;
  controlPlaneDomains: string[];
  publicScheme: 'http' | 'https';
  publicPort: number;
  production: boolean;
  testFailRealmCreateAt: number | undefined;
  rateLimitScale: number;
  realmCacheSeconds: number;
  realmPoolMax: number | undefined;
  realmPoolIdleMs: number | undefined;
  logQuiet: boolean;
  /** The configured encryption key (GATEHOUSE_SECRET_KEY, GATEHOUSE_SECRET_KEY_FILE or ./gatehouse.key), if any. */
  secretKey: Buffer | undefined;
  /** Where that key came from (the variable, or the file read), named in messages about it. */
  secretKeySource: string | undefined;
  /** Seconds between passes of the purge job; 0 means off. */
  purgeIntervalSeconds: number;
  /** The non-public hosts, addresses and ranges outbound calls a tenant aims may reach (GATEHOUSE_OUTBOUND_ALLOW). */
  outboundAllow: AllowList;
  /** Proxies whose X-Forwarded-For names the client (lib/web/client-ip.ts); empty: the socket's peer is the client. */
  trustedProxies: string[];
};

/**
 * Where the server and the CLI look for the encryption key when neither GATEHOUSE_SECRET_KEY nor
 * GATEHOUSE_SECRET_KEY_FILE is set: the file the README's install line creates in the working
 * directory (the directory `npm start` and `npx gatehouse` run in, as the default `./data` is).
 * Both processes finding the key in one place is what keeps the CLI from meeting a store without
 * its key (docs/security.md "The platform key").
 */
export const DEFAULT_SECRET_KEY_FILE = 'gatehouse.key';

function readKeyFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (e) {
    throw new Error(`Invalid configuration: ${what} ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`, { cause: e });
  }
}

/**
 * The key from the variable, the named file, or the default file in the working directory, checked
 * for 32 bytes; undefined when none is there. The default file must be private to Gatehouse's user
 * (mode 0600, as the install line's `umask 077` makes it): a key others can read is refused.
 */
function configuredSecretKey(value: string | undefined, file: string | undefined, cwd: string): { key: Buffer; source: string } | undefined {
  if (value && file) throw new Error('Invalid configuration: set GATEHOUSE_SECRET_KEY or GATEHOUSE_SECRET_KEY_FILE, not both');
  let text = value;
  let source = 'GATEHOUSE_SECRET_KEY';
  let path: string | undefined;
  if (file) {
    path = file;
    source = `GATEHOUSE_SECRET_KEY_FILE (${file})`;
    text = readKeyFile(file, 'GATEHOUSE_SECRET_KEY_FILE');
  } else if (!value) {
    path = resolve(/* turbopackIgnore: true */ cwd, DEFAULT_SECRET_KEY_FILE);
    const st = statSync(/* turbopackIgnore: true */ path, { throwIfNoEntry: false });
    if (!st) return undefined;
    source = `the key file ${path}`;
    if ((st.mode & 0o077) !== 0)
      throw new Error(`Invalid configuration: the key file ${path} can be read or written by other users; make it private: chmod 600 ${path}`);
    text = readKeyFile(path, 'the key file');
  }
  if (text === undefined) return undefined;
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32)
    throw new Error(
      `Invalid configuration: ${path ? `the key file ${path}` : 'GATEHOUSE_SECRET_KEY'} must hold 32 bytes, base64-encoded (openssl rand -base64 32)`,
    );
  return { key, source };
}

/** The trusted proxies, each checked by the library that will match them (an unknown form fails the start). */
function trustedProxyList(value: string): string[] {
  const list = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  try {
    proxyaddr.compile(list);
  } catch (e) {
    throw new Error(`Invalid configuration: GATEHOUSE_TRUSTED_PROXIES: ${(e as Error).message}`, { cause: e });
  }
  return list;
}

function outboundAllowList(value: string): AllowList {
  try {
    return parseAllowList(value);
  } catch (e) {
    throw new Error(`Invalid configuration: GATEHOUSE_OUTBOUND_ALLOW: ${(e as Error).message}`, { cause: e });
  }
}

let cached: Settings | undefined;

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const domains = e.GATEHOUSE_CONTROL_PLANE_DOMAINS.split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  if (domains.length === 0) throw new Error('Invalid configuration: GATEHOUSE_CONTROL_PLANE_DOMAINS is empty');
  const production = e.NODE_ENV === 'production';
  const secret = configuredSecretKey(e.GATEHOUSE_SECRET_KEY, e.GATEHOUSE_SECRET_KEY_FILE, /* turbopackIgnore: true */ process.cwd());
  return {
    port: e.PORT,
    dataDir: isAbsolute(e.GATEHOUSE_DATA_DIR) ? e.GATEHOUSE_DATA_DIR : resolve(/* turbopackIgnore: true */ process.cwd(), e.GATEHOUSE_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    controlPlaneSlug: e.GATEHOUSE_CONTROL_PLANE_SLUG,
    controlPlaneDomains: domains,
    publicScheme: e.GATEHOUSE_PUBLIC_SCHEME,
    publicPort: e.GATEHOUSE_PUBLIC_PORT ?? e.PORT,
    production,
    testFailRealmCreateAt: e.GATEHOUSE_TEST_FAIL_REALM_CREATE_AT,
    rateLimitScale: e.GATEHOUSE_RATE_LIMIT_SCALE,
    realmCacheSeconds: e.GATEHOUSE_REALM_CACHE_SECONDS,
    realmPoolMax: e.GATEHOUSE_REALM_POOL_MAX,
    realmPoolIdleMs: e.GATEHOUSE_REALM_POOL_IDLE_MS,
    logQuiet: e.GATEHOUSE_LOG_QUIET === '1',
    secretKey: secret?.key,
    secretKeySource: secret?.source,
    purgeIntervalSeconds: e.GATEHOUSE_PURGE_INTERVAL_SECONDS,
    outboundAllow: outboundAllowList(e.GATEHOUSE_OUTBOUND_ALLOW),
    trustedProxies: trustedProxyList(e.GATEHOUSE_TRUSTED_PROXIES),
  };
}

/** The process-wide settings, parsed on first use. */
export function settings(): Settings {
  cached ??= loadSettings();
  return cached;
}

/** The scheme and port of the public URLs (for pages that build them in the browser). */
export function publicBase(s: Settings = settings()): PublicBase {
  return { scheme: s.publicScheme, port: s.publicPort };
}

/** Public origin of a host: `<scheme>://<host>[:<port>]`, the port left out when it is the default. */
export function publicOrigin(host: string, s: Settings = settings()): string {
  return originOf(publicBase(s), host);
}

// GSSAPI (MIT krb5, through the `kerberos` package) takes the keytab of an acceptor from the process
// environment (KRB5_KTNAME) and offers no per-call option: the Kerberos sign-in sets it around each
// acceptance (lib/domain/external-identity/kerberos/spnego.ts). These two are for such variables read
// by native libraries, not for Gatehouse's own settings, which go through `settings()`.

/** The current value of a process environment variable read by a native library. */
export function readProcessEnv(name: string): string | undefined {
  return process.env[name];
}

/** Sets (or, with undefined, removes) a process environment variable read by a native library. */
export function setProcessEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
