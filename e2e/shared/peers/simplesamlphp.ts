import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freeLoopbackPort, makeDaemonHome, retryOnPortRace, runTool, waitUntilAnswering } from './daemon';

// A real SAML 2.0 IdP for tests: Debian's SimpleSAMLphp 1.19 (/usr/share/simplesamlphp) served by
// `php -S` on a free loopback port. Debian's own configuration in /etc/simplesamlphp is never read:
// SIMPLESAMLPHP_CONFIG_DIR (lib/SimpleSAML/Utils/Config.php::getConfigDir) points at a temporary
// directory with our config.php, an exampleauth:UserPass source with the users below, a freshly
// made signing key pair, and the SPs it trusts. The IdP checks the signature of every AuthnRequest
// (`validate.authnrequest`) with the SP's certificate, as a real deployment would.

export type SimpleSamlUser = { username: string; password: string; email: string; givenName: string; sn: string };

export type SimpleSamlSp = {
  entityId: string;
  acsUrl: string;
  /** The SP's signing certificate (PEM): the IdP checks AuthnRequest signatures with it. */
  certificatePem: string;
  /**
   * Whether the IdP signs the whole Response besides the Assertion (SimpleSAMLphp's default: yes).
   * `false` is what many IdPs do (only the assertion is signed), and the harder case for an SP.
   */
  signResponse?: boolean;
  /** The NameID format the IdP sends this SP (default: the IdP's, persistent). */
  nameIdFormat?: string;
};

export type SimpleSamlIdp = {
  /** `http://127.0.0.1:<port>/` */
  baseUrl: string;
  entityId: string;
  /** The SingleSignOnService of the HTTP-Redirect binding. */
  ssoUrl: string;
  metadataXml: string;
  /** The IdP's signing certificate (PEM). */
  certificatePem: string;
  /** The IdP's signing key (PKCS#8 PEM), for tests that forge what only the IdP could sign. */
  privateKeyPem: string;
  users: SimpleSamlUser[];
  addSp(sp: SimpleSamlSp): Promise<void>;
  /** SimpleSAMLphp's own log (warnings and errors): why it refused a request. */
  log(): string;
  stop(): Promise<void>;
};

const WWW = '/usr/share/simplesamlphp/www';
const READY_WITHIN_MS = 20_000;
const AUTH_SOURCE = 'example-userpass';

/** The people the IdP knows; `o'hara` has a quote that must survive PHP and XML quoting. */
const SEED_USERS: SimpleSamlUser[] = [
  { username: 'alice', password: 'alice-Idp-pw1', email: 'alice@idp.example', givenName: 'Alice', sn: 'Liddell' },
  { username: 'bob', password: 'bob-Idp-pw2', email: 'bob@idp.example', givenName: 'Bob', sn: 'Builder' },
  { username: "o'hara", password: 'ohara-Idp-pw3', email: 'ohara@idp.example', givenName: 'Scarlett', sn: "O'Hara" },
];

export async function startSimpleSamlIdp(options: { sps: SimpleSamlSp[] }): Promise<SimpleSamlIdp> {
  const home = makeDaemonHome('gatehouse-simplesamlphp-');
  const dir = home.dir;
  try {
    await requirePhpDom();
    for (const sub of ['metadata', 'log', 'data', 'tmp', 'sessions']) mkdirSync(join(dir, sub), { mode: 0o700 });
    const { certificatePem, privateKeyPem } = await idpKeyPair(dir);
    const users = SEED_USERS.map((u) => ({ ...u }));
    const sps = [...options.sps];
    writeFileSync(join(dir, 'authsources.php'), authSourcesPhp(users), { mode: 0o600 });
    writeFileSync(join(dir, 'metadata', 'saml20-sp-remote.php'), spRemotePhp(sps), { mode: 0o600 });

    return await retryOnPortRace(home, async (): Promise<SimpleSamlIdp> => {
      const port = await freeLoopbackPort();
      const baseUrl = `http://127.0.0.1:${port}/`;
      const entityId = `${baseUrl}saml2/idp/metadata.php`;
      writeFileSync(join(dir, 'config.php'), configPhp(dir, baseUrl), { mode: 0o600 });
      writeFileSync(join(dir, 'metadata', 'saml20-idp-hosted.php'), idpHostedPhp(dir, entityId), { mode: 0o600 });
      const daemon = home.spawn('php', phpServerArgs(dir, port), { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: dir });
      const metadataXml = await waitUntilAnswering(daemon, `SimpleSAMLphp (php -S) at ${entityId}`, () => fetchIdpMetadata(entityId), {
        withinMs: READY_WITHIN_MS,
        everyMs: 100,
      });
      return {
        baseUrl,
        entityId,
        ssoUrl: `${baseUrl}saml2/idp/SSOService.php`,
        metadataXml,
        certificatePem,
        privateKeyPem,
        users,
        addSp: async (sp) => {
          // SimpleSAMLphp reads its metadata files on every request: no restart needed.
          sps.push(sp);
          writeFileSync(join(dir, 'metadata', 'saml20-sp-remote.php'), spRemotePhp(sps), { mode: 0o600 });
        },
        log: () => {
          try {
            return readFileSync(join(dir, 'log', 'simplesamlphp.log'), 'utf8');
          } catch {
            return '';
          }
        },
        stop: () => home.remove(),
      };
    });
  } catch (e) {
    await home.remove();
    throw e;
  }
}

/**
 * Drives one sign-in at the IdP over plain HTTP, as a browser would: follow the redirect that
 * carries the AuthnRequest, fill the login form (with its AuthState hidden field), and read the
 * auto-submitting form that would POST the SAMLResponse to the SP's ACS.
 */
export async function loginAtSimpleSaml(
  redirectUrl: string,
  username: string,
  password: string,
): Promise<{ acsUrl: string; SAMLResponse: string; RelayState?: string }> {
  const jar = new Map<string, string>();
  let page = await browse(jar, redirectUrl);
  const login = findForm(page.body, page.url, 'password');
  if (!login) throw new Error(`SimpleSAMLphp did not show its login form (HTTP ${page.status} at ${page.url}):\n${page.body.slice(0, 2000)}`);
  const fields = { ...login.fields, username, password };
  page = await browse(jar, login.action, new URLSearchParams(fields));
  const post = findForm(page.body, page.url, 'SAMLResponse');
  if (!post) throw new Error(`SimpleSAMLphp did not answer with a SAMLResponse form (HTTP ${page.status} at ${page.url}):\n${page.body.slice(0, 2000)}`);
  return {
    acsUrl: post.action,
    SAMLResponse: post.fields.SAMLResponse,
    ...(post.fields.RelayState !== undefined ? { RelayState: post.fields.RelayState } : {}),
  };
}

type Page = { url: string; status: number; body: string };

/** One request, then every redirect, with a hand-kept cookie jar (one host: the IdP's). */
async function browse(jar: Map<string, string>, url: string, form?: URLSearchParams): Promise<Page> {
  let method = form ? 'POST' : 'GET';
  let body: URLSearchParams | undefined = form;
  for (let hops = 0; hops < 10; hops++) {
    const headers: Record<string, string> = {};
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { method, body, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.arrayBuffer();
      url = new URL(location, url).toString();
      method = 'GET';
      body = undefined;
      continue;
    }
    return { url, status: res.status, body: await res.text() };
  }
  throw new Error(`Too many redirects at the IdP, last at ${url}`);
}

/** The first form that has an input named `needle`: its absolute action and its named inputs' values. */
function findForm(html: string, pageUrl: string, needle: string): { action: string; fields: Record<string, string> } | undefined {
  for (const [, attrs, inner] of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const fields: Record<string, string> = {};
    for (const [, input] of inner.matchAll(/<input\b([^>]*)>/gi)) {
      const name = attribute(input, 'name');
      if (name !== undefined) fields[name] = attribute(input, 'value') ?? '';
    }
    if (!(needle in fields)) continue;
    return { action: new URL(attribute(attrs, 'action') || pageUrl, pageUrl).toString(), fields };
  }
  return undefined;
}

function attribute(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(tag);
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3]) : undefined;
}

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[lower];
  });
}

// ---- configuration files ----

/** A PHP literal of a JSON-like value (strings single-quoted: only \ and ' are special there). */
function php(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/[\\']/g, (c) => '\\' + c)}'`;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(php).join(', ')}]`;
  return `[\n${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `  ${php(k)} => ${php(v)},`)
    .join('\n')}\n]`;
}

function configPhp(dir: string, baseUrl: string): string {
  const config = {
    // An absolute baseurlpath: the IdP builds its entity id, endpoints and redirects from it.
    baseurlpath: baseUrl,
    certdir: dir,
    loggingdir: join(dir, 'log'),
    datadir: join(dir, 'data'),
    tempdir: join(dir, 'tmp'),
    metadatadir: join(dir, 'metadata'),
    attributenamemapdir: '/usr/share/simplesamlphp/attributemap/',
    'metadata.sources': [{ type: 'flatfile' }],
    secretsalt: randomBytes(24).toString('hex'),
    'auth.adminpassword': randomBytes(24).toString('hex'),
    'admin.protectindexpage': true,
    'admin.protectmetadata': false,
    'admin.checkforupdates': false,
    technicalcontact_name: 'Gatehouse tests',
    technicalcontact_email: 'tests@idp.example',
    timezone: 'UTC',
    'enable.saml20-idp': true,
    'enable.shib13-idp': false,
    'module.enable': { exampleauth: true, core: true, saml: true, admin: false },
    'store.type': 'phpsession',
    'session.phpsession.savepath': join(dir, 'sessions'),
    // Plain HTTP on loopback: secure cookies would never come back.
    'session.cookie.secure': false,
    'session.cookie.samesite': null,
    'language.cookie.secure': false,
    'language.cookie.samesite': null,
    'logging.handler': 'file',
    'logging.logfile': 'simplesamlphp.log',
    'logging.level': 4, // SimpleSAML\Logger::WARNING
    'statistics.out': [],
    showerrors: true,
    errorreporting: false,
    production: true,
    'debug.validatexml': false,
  };
  return `<?php\n$config = ${php(config)};\n`;
}

function authSourcesPhp(users: SimpleSamlUser[]): string {
  const source: Record<string, unknown> = { 0: 'exampleauth:UserPass' };
  for (const u of users) source[`${u.username}:${u.password}`] = { uid: [u.username], mail: [u.email], givenName: [u.givenName], sn: [u.sn] };
  const sources = { admin: ['core:AdminPassword'], [AUTH_SOURCE]: source };
  // `0 => 'exampleauth:UserPass'`: php() writes the key as the string '0', which PHP turns back into the integer key 0.
  return `<?php\n$config = ${php(sources)};\n`;
}

function idpHostedPhp(dir: string, entityId: string): string {
  const idp = {
    host: '__DEFAULT__',
    privatekey: join(dir, 'idp.key'),
    certificate: join(dir, 'idp.crt'),
    auth: AUTH_SOURCE,
    // A persistent NameID: SimpleSAMLphp derives it per SP from the user id attribute and its salt.
    NameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    'userid.attribute': 'uid',
    'signature.algorithm': 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    'attributes.NameFormat': 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic',
    // Every AuthnRequest must be signed by the SP's key (the SP's certificate is in saml20-sp-remote.php).
    'validate.authnrequest': true,
    'sign.authnrequest': true,
    'saml20.sign.assertion': true,
  };
  return `<?php\n$metadata[${php(entityId)}] = ${php(idp)};\n`;
}

function spRemotePhp(sps: SimpleSamlSp[]): string {
  const entries = sps.map((sp) => {
    const remote = {
      AssertionConsumerService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', Location: sp.acsUrl }],
      certData: pemBody(sp.certificatePem),
      'validate.authnrequest': true,
      'saml20.sign.response': sp.signResponse ?? true,
      'saml20.sign.assertion': true,
      ...(sp.nameIdFormat ? { NameIDFormat: sp.nameIdFormat } : {}),
    };
    return `$metadata[${php(sp.entityId)}] = ${php(remote)};`;
  });
  return `<?php\n${entries.join('\n')}\n`;
}

function pemBody(pem: string): string {
  const m = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(pem);
  if (!m) throw new Error('An SP certificate must be a PEM certificate.');
  return m[1].replace(/\s+/g, '');
}

async function idpKeyPair(dir: string): Promise<{ certificatePem: string; privateKeyPem: string }> {
  const key = join(dir, 'idp.key');
  const cert = join(dir, 'idp.crt');
  await runTool('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-sha256',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=SimpleSAMLphp test IdP',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  return { certificatePem: readFileSync(cert, 'utf8'), privateKeyPem: readFileSync(key, 'utf8') };
}

// ---- the daemon ----

/** Debian's simplesamlphp package does not depend on php-xml, without which every page fails (no DOMDocument). */
async function requirePhpDom(): Promise<void> {
  const modules = await runTool('php', ['-m']);
  if (!/^dom$/im.test(modules)) throw new Error("SimpleSAMLphp needs PHP's DOM extension: apt-get install php-xml");
}

/** PHP's built-in web server serving SimpleSAMLphp's www directory, its sessions in our directory. */
function phpServerArgs(dir: string, port: number): string[] {
  return [
    '-d',
    `session.save_path=${join(dir, 'sessions')}`,
    '-d',
    'display_errors=stderr',
    '-d',
    'error_reporting=E_ALL & ~E_DEPRECATED',
    '-S',
    `127.0.0.1:${port}`,
    '-t',
    WWW,
  ];
}

/** The IdP's metadata document: SimpleSAMLphp is ready when it serves it. */
async function fetchIdpMetadata(entityId: string): Promise<string> {
  const res = await fetch(entityId, { signal: AbortSignal.timeout(5_000) });
  const body = await res.text();
  if (res.ok && body.includes('IDPSSODescriptor')) return body;
  throw new Error(`HTTP ${res.status}: ${body.slice(0, 2000)}`);
}
