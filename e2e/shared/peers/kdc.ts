import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { createSocket } from 'node:dgram';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

// An MIT KDC from Debian's packages (krb5-kdc, krb5-admin-server) as a test peer: a realm of its own in
// a temporary directory, its database made with kdb5_util, principals and keytabs with kadmin.local,
// and krb5kdc in the foreground on a free port of 127.0.0.1 (UDP and TCP). Every tool reads the
// temporary krb5.conf and kdc.conf through KRB5_CONFIG and KRB5_KDC_PROFILE: nothing is written to
// /etc, and two KDCs (two realms) run side by side.

export type KdcUser = { name: string; password: string };

export type Kdc = {
  realm: string;
  port: number;
  /** The client configuration (realm, KDC address, no DNS): KRB5_CONFIG for kinit, curl and clients. */
  krb5ConfigPath: string;
  /** The keytab holding the keys of HTTP/<host>@REALM, as an administrator would upload it. */
  keytabFor(host: string): Buffer;
  /** `HTTP/<host>@REALM`. */
  servicePrincipal(host: string): string;
  /** Gets a ticket-granting ticket for a user into a ticket cache of its own; `env` names it (KRB5CCNAME) and the realm (KRB5_CONFIG). */
  kinit(user: string): Promise<{ ccache: string; env: Record<string, string> }>;
  users: KdcUser[];
  stop(): Promise<void>;
};

const SBIN = '/usr/sbin';

/** A port free on 127.0.0.1 for both TCP and UDP (the KDC listens on both). */
async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        const address = s.address();
        s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const udpFree = await new Promise<boolean>((resolve) => {
      const u = createSocket('udp4');
      u.once('error', () => resolve(false));
      u.bind(port, '127.0.0.1', () => u.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
  throw new Error('no port free for both TCP and UDP on 127.0.0.1');
}

/** Runs a tool with the KDC's environment; rejects with its output when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${output.trim()}`))));
    child.stdin.end(input ?? '');
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export async function startKdc(options: { serviceHosts: string[]; realm?: string }): Promise<Kdc> {
  const realm = options.realm ?? 'GATEHOUSE.TEST';
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-kdc-'));
  let kdc: ChildProcess | undefined;
  try {
    const port = await freePort();
    const krb5ConfigPath = join(dir, 'krb5.conf');
    const kdcConfigPath = join(dir, 'kdc.conf');
    // No DNS anywhere: the KDC is named by address, and host names in service principals are taken
    // as written (no canonicalisation, no reverse lookup), so `HTTP@<host>` means HTTP/<host>@REALM.
    await writeFile(
      krb5ConfigPath,
      [
        '[libdefaults]',
        `  default_realm = ${realm}`,
        '  dns_lookup_kdc = false',
        '  dns_lookup_realm = false',
        '  dns_canonicalize_hostname = false',
        '  rdns = false',
        '[realms]',
        `  ${realm} = {`,
        `    kdc = 127.0.0.1:${port}`,
        '  }',
        '',
      ].join('\n'),
    );
    await writeFile(
      kdcConfigPath,
      [
        '[kdcdefaults]',
        `  kdc_listen = 127.0.0.1:${port}`,
        `  kdc_tcp_listen = 127.0.0.1:${port}`,
        '[realms]',
        `  ${realm} = {`,
        `    database_name = ${join(dir, 'principal')}`,
        `    key_stash_file = ${join(dir, 'stash')}`,
        '    max_life = 1h',
        '  }',
        '[logging]',
        `  kdc = FILE:${join(dir, 'kdc.log')}`,
        '',
      ].join('\n'),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, KRB5_CONFIG: krb5ConfigPath, KRB5_KDC_PROFILE: kdcConfigPath };

    await run(`${SBIN}/kdb5_util`, ['create', '-s', '-r', realm, '-P', randomBytes(18).toString('base64url')], env);
    const admin = (query: string) => run(`${SBIN}/kadmin.local`, ['-r', realm, '-q', query], env);
    const users: KdcUser[] = ['alice', 'bob'].map((name) => ({ name, password: `${name}-${randomBytes(9).toString('base64url')}` }));
    for (const u of users) await admin(`addprinc -pw ${u.password} ${u.name}`);
    const keytabs = new Map<string, Buffer>();
    for (const host of options.serviceHosts) {
      const file = join(dir, `${host}.keytab`);
      await admin(`addprinc -randkey HTTP/${host}`);
      await admin(`ktadd -k ${file} HTTP/${host}`);
      keytabs.set(host, await readFile(file));
    }

    kdc = spawn(`${SBIN}/krb5kdc`, ['-n', '-r', realm], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let kdcOutput = '';
    kdc.stderr?.on('data', (d: Buffer) => (kdcOutput += d.toString()));
    const running = kdc;

    const kinit = async (user: string) => {
      const u = users.find((x) => x.name === user);
      if (!u) throw new Error(`the test KDC has no user ${user}`);
      const ccache = join(dir, `ccache-${user}-${randomBytes(4).toString('hex')}`);
      const clientEnv = { KRB5_CONFIG: krb5ConfigPath, KRB5CCNAME: `FILE:${ccache}` };
      // kinit reads the password from standard input when it is not a terminal.
      await run('kinit', [`${u.name}@${realm}`], { ...process.env, ...clientEnv }, `${u.password}\n`);
      return { ccache, env: clientEnv };
    };

    // Ready when a user gets a ticket (the KDC answers AS requests).
    for (let attempt = 0; ; attempt++) {
      if (running.exitCode !== null) throw new Error(`krb5kdc exited with ${running.exitCode}: ${kdcOutput.trim()}`);
      try {
        await kinit(users[0].name);
        break;
      } catch (e) {
        if (attempt >= 50) throw new Error(`the test KDC did not answer: ${(e as Error).message}`, { cause: e });
        await sleep(200);
      }
    }

    return {
      realm,
      port,
      krb5ConfigPath,
      keytabFor(host) {
        const keytab = keytabs.get(host);
        if (!keytab) throw new Error(`the test KDC has no service principal for ${host}`);
        return keytab;
      },
      servicePrincipal: (host) => `HTTP/${host}@${realm}`,
      kinit,
      users,
      async stop() {
        if (running.exitCode === null) {
          const exited = new Promise((r) => running.once('exit', r));
          running.kill('SIGTERM');
          await Promise.race([exited, sleep(5000)]);
          if (running.exitCode === null && running.signalCode === null) running.kill('SIGKILL');
        }
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    kdc?.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}
