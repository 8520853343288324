import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'ldapts';
import { freeLoopbackPort, makeDaemonHome, retryOnPortRace, runTool, waitUntilAnswering } from './daemon';

// A real OpenLDAP directory for tests: Debian's /usr/sbin/slapd on a free loopback port, with its
// own temporary directory (an old-style slapd.conf, an mdb database loaded offline by slapadd, and
// with `tls` a self-signed certificate for StartTLS on the same ldap:// port). The people in it
// include uids with LDAP filter metacharacters, so tests can prove that filters are escaped.

export type SlapdUser = { uid: string; password: string; mail: string; givenName: string; sn: string; dn: string };
export type NewSlapdUser = Omit<SlapdUser, 'dn'>;

export type SlapdPeer = {
  url: string;
  port: number;
  /** With `tls`: the same directory over TLS from the first byte (ldaps://), on a port of its own. */
  ldapsUrl?: string;
  baseDn: string;
  /** The entries' parent: `ou=people,<baseDn>`. */
  peopleDn: string;
  adminDn: string;
  adminPassword: string;
  users: SlapdUser[];
  /** The self-signed certificate to trust, with `tls`. It names 127.0.0.1 only, so `ldap://localhost:<port>` is a host it does not name. */
  caCertPem?: string;
  addUser(user: NewSlapdUser): Promise<void>;
  stop(): Promise<void>;
};

const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';
const SCHEMAS = ['core', 'cosine', 'inetorgperson', 'nis'].map((s) => `/etc/ldap/schema/${s}.schema`);
const BASE_DN = 'dc=gatehouse,dc=test';
const PEOPLE_DN = `ou=people,${BASE_DN}`;
const ADMIN_DN = `cn=admin,${BASE_DN}`;
const READY_WITHIN_MS = 15_000;

/** The people every directory starts with; the last two have filter metacharacters in their uid. */
const SEED_USERS: NewSlapdUser[] = [
  { uid: 'alice', password: 'alice-Directory-pw1', mail: 'alice@dir.example', givenName: 'Alice', sn: 'Liddell' },
  { uid: 'bob', password: 'bob-Directory-pw2', mail: 'bob@dir.example', givenName: 'Bob', sn: 'Builder' },
  { uid: 'o*brien', password: 'obrien-Directory-pw3', mail: 'obrien@dir.example', givenName: 'Conan', sn: "O'Brien" },
  { uid: 'a(b)\\c', password: 'abc-Directory-pw4', mail: 'abc@dir.example', givenName: 'Ab', sn: 'Paren' },
];

export async function startSlapd(options: { tls?: boolean } = {}): Promise<SlapdPeer> {
  const home = makeDaemonHome('gatehouse-slapd-');
  const dir = home.dir;
  try {
    const adminPassword = randomBytes(12).toString('base64url');
    let caCertPem: string | undefined;
    if (options.tls) caCertPem = await selfSignedCertificate(dir);
    const conf = join(dir, 'slapd.conf');
    writeFileSync(conf, slapdConf(dir, adminPassword, !!caCertPem), { mode: 0o600 });
    const users = SEED_USERS.map((u) => ({ ...u, dn: personDn(u.uid) }));
    writeFileSync(join(dir, 'seed.ldif'), seedLdif(users), { mode: 0o600 });
    await runTool(SLAPADD, ['-f', conf, '-l', join(dir, 'seed.ldif')]);

    return await retryOnPortRace(home, async (): Promise<SlapdPeer> => {
      const port = await freeLoopbackPort();
      const url = `ldap://127.0.0.1:${port}`;
      const ldapsUrl = caCertPem ? `ldaps://127.0.0.1:${await freeLoopbackPort()}` : undefined;
      // `-d none` keeps slapd in the foreground (our child, killed by stop()) and prints only its errors.
      const listen = (ldapsUrl ? [url, ldapsUrl] : [url]).map((u) => `${u}/`).join(' ');
      const daemon = home.spawn(SLAPD, ['-f', conf, '-h', listen, '-d', 'none']);
      await waitUntilAnswering(daemon, `slapd on ${url}`, () => bindOnce(url, ADMIN_DN, adminPassword), { withinMs: READY_WITHIN_MS, everyMs: 50 });
      return {
        url,
        port,
        ldapsUrl,
        baseDn: BASE_DN,
        peopleDn: PEOPLE_DN,
        adminDn: ADMIN_DN,
        adminPassword,
        users,
        caCertPem,
        addUser: async (u) => {
          const client = new Client({ url, timeout: 5_000, connectTimeout: 5_000 });
          try {
            await client.bind(ADMIN_DN, adminPassword);
            await client.add(personDn(u.uid), personAttributes(u));
          } finally {
            await client.unbind().catch(() => undefined);
          }
          users.push({ ...u, dn: personDn(u.uid) });
        },
        stop: () => home.remove(),
      };
    });
  } catch (e) {
    await home.remove();
    throw e;
  }
}

/** RFC 4514 escaping of an attribute value inside a DN, in upper-case hex as slapd writes DNs back. */
function dnValue(value: string): string {
  return value.replace(/[\\,+"<>;=\0]|^[ #]| $/g, (c) => '\\' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
}

function personDn(uid: string): string {
  return `uid=${dnValue(uid)},${PEOPLE_DN}`;
}

function personAttributes(u: NewSlapdUser): Record<string, string | string[]> {
  return {
    objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'],
    uid: u.uid,
    cn: `${u.givenName} ${u.sn}`,
    givenName: u.givenName,
    sn: u.sn,
    mail: u.mail,
    userPassword: ssha(u.password),
  };
}

/** `{SSHA}`: base64(SHA-1(password + salt) + salt), which slapd verifies natively. */
function ssha(password: string): string {
  const salt = randomBytes(8);
  return '{SSHA}' + Buffer.concat([createHash('sha1').update(password).update(salt).digest(), salt]).toString('base64');
}

/** Every value base64-encoded (`attr:: ...`), so no character of a uid needs LDIF quoting rules. */
function ldifEntry(dn: string, attributes: Record<string, string | string[]>): string {
  const b64 = (v: string) => Buffer.from(v, 'utf8').toString('base64');
  const lines = [`dn:: ${b64(dn)}`];
  for (const [name, value] of Object.entries(attributes)) for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}:: ${b64(v)}`);
  return lines.join('\n') + '\n';
}

function seedLdif(users: SlapdUser[]): string {
  return [
    ldifEntry(BASE_DN, { objectClass: ['dcObject', 'organization'], dc: 'gatehouse', o: 'Gatehouse tests' }),
    ldifEntry(PEOPLE_DN, { objectClass: 'organizationalUnit', ou: 'people' }),
    ...users.map((u) => ldifEntry(u.dn, personAttributes(u))),
  ].join('\n');
}

function slapdConf(dir: string, adminPassword: string, tls: boolean): string {
  return [
    ...SCHEMAS.map((s) => `include ${s}`),
    `pidfile ${join(dir, 'slapd.pid')}`,
    `argsfile ${join(dir, 'slapd.args')}`,
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    ...(tls ? [`TLSCertificateFile ${join(dir, 'cert.pem')}`, `TLSCertificateKeyFile ${join(dir, 'key.pem')}`] : []),
    'database mdb',
    'maxsize 16777216',
    `suffix "${BASE_DN}"`,
    `rootdn "${ADMIN_DN}"`,
    `rootpw ${ssha(adminPassword)}`,
    `directory ${dir}`,
    // Passwords: anyone may bind with one (auth), nobody else reads them (the rootdn bypasses ACLs).
    // Everything else is readable, anonymously too, so a provider without BindDn can search.
    'access to attrs=userPassword by self read by anonymous auth by * none',
    'access to * by * read',
    '',
  ].join('\n');
}

async function selfSignedCertificate(dir: string): Promise<string> {
  const cert = join(dir, 'cert.pem');
  await runTool('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=Gatehouse test directory',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    join(dir, 'key.pem'),
    '-out',
    cert,
  ]);
  return readFileSync(cert, 'utf8');
}

/** One bind as the administrator: slapd is ready when it accepts one. */
async function bindOnce(url: string, dn: string, password: string): Promise<void> {
  const client = new Client({ url, timeout: 2_000, connectTimeout: 2_000 });
  try {
    await client.bind(dn, password);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}
