import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freeLoopbackPort, makeDaemonHome, runTool, waitUntilAnswering } from './daemon';

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
const READY_WITHIN_MS = 15_000;

export async function startKdc(options: { serviceHosts: string[]; realm?: string }): Promise<Kdc> {
  const realm = options.realm ?? 'GATEHOUSE.TEST';
  const home = makeDaemonHome('gatehouse-kdc-', { graceMs: 5_000 });
  const dir = home.dir;
  try {
    // The port goes into the configuration and the database before krb5kdc binds it: no retry here.
    const port = await freeLoopbackPort({ udp: true });
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

    await runTool(`${SBIN}/kdb5_util`, ['create', '-s', '-r', realm, '-P', randomBytes(18).toString('base64url')], { env });
    const admin = (query: string) => runTool(`${SBIN}/kadmin.local`, ['-r', realm, '-q', query], { env });
    const users: KdcUser[] = ['alice', 'bob'].map((name) => ({ name, password: `${name}-${randomBytes(9).toString('base64url')}` }));
    for (const u of users) await admin(`addprinc -pw ${u.password} ${u.name}`);
    const keytabs = new Map<string, Buffer>();
    for (const host of options.serviceHosts) {
      const file = join(dir, `${host}.keytab`);
      await admin(`addprinc -randkey HTTP/${host}`);
      await admin(`ktadd -k ${file} HTTP/${host}`);
      keytabs.set(host, await readFile(file));
    }

    const daemon = home.spawn(`${SBIN}/krb5kdc`, ['-n', '-r', realm], env);

    const kinit = async (user: string) => {
      const u = users.find((x) => x.name === user);
      if (!u) throw new Error(`the test KDC has no user ${user}`);
      const ccache = join(dir, `ccache-${user}-${randomBytes(4).toString('hex')}`);
      const clientEnv = { KRB5_CONFIG: krb5ConfigPath, KRB5CCNAME: `FILE:${ccache}` };
      // kinit reads the password from standard input when it is not a terminal.
      await runTool('kinit', [`${u.name}@${realm}`], { env: { ...process.env, ...clientEnv }, input: `${u.password}\n` });
      return { ccache, env: clientEnv };
    };

    // Ready when a user gets a ticket (the KDC answers AS requests).
    await waitUntilAnswering(daemon, `krb5kdc on 127.0.0.1:${port}`, () => kinit(users[0].name), { withinMs: READY_WITHIN_MS, everyMs: 200 });

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
      stop: () => home.remove(),
    };
  } catch (e) {
    await home.remove();
    throw e;
  }
}
