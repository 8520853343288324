import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSlapd, type SlapdPeer } from '@/e2e/shared/peers/slapd';
import { EMPTY_ALLOW_LIST } from '../../../outbound/address-policy';
import type { LdapSection } from '../sections';
import { LdapUnavailableError } from './ldap-connection';
import { authenticateLdapUser, testLdapConnection } from './ldap-directory';

// Against Debian's real slapd (e2e/shared/peers/slapd.ts): one plain directory and one that offers StartTLS,
// on 127.0.0.1, which the operator's list allows here (GATEHOUSE_OUTBOUND_ALLOW, read by settings()).
vi.stubEnv('GATEHOUSE_OUTBOUND_ALLOW', '127.0.0.1,localhost');

let plain: SlapdPeer;
let tls: SlapdPeer;

beforeAll(async () => {
  [plain, tls] = await Promise.all([startSlapd(), startSlapd({ tls: true })]);
}, 60_000);

afterAll(async () => {
  await Promise.all([plain?.stop(), tls?.stop()]);
  vi.unstubAllEnvs();
});

const sectionOf = (peer: SlapdPeer, extra: Partial<LdapSection> = {}): LdapSection => ({
  Url: peer.url,
  BindDn: peer.adminDn,
  UserSearchBase: peer.peopleDn,
  ...extra,
});
const user = (peer: SlapdPeer, uid: string) => {
  const u = peer.users.find((x) => x.uid === uid);
  if (!u) throw new Error(`no seeded user ${uid}`);
  return u;
};

/** The rejection, which must be an LdapUnavailableError whose message names no password. */
async function unavailable(p: Promise<unknown>, ...secrets: string[]): Promise<LdapUnavailableError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(LdapUnavailableError);
  const err = e as LdapUnavailableError;
  for (const s of secrets) expect(err.message).not.toContain(s);
  return err;
}

describe('authenticateLdapUser with a service bind', () => {
  it('answers the entry for the right password, without the password attribute', async () => {
    const alice = user(plain, 'alice');
    const entry = await authenticateLdapUser(sectionOf(plain), plain.adminPassword, 'alice', alice.password);
    expect(entry).toMatchObject({ dn: alice.dn, uid: 'alice', mail: alice.mail, givenName: alice.givenName, sn: alice.sn, cn: 'Alice Liddell' });
    expect(entry!.attributes.mail).toBe(alice.mail);
    expect(typeof entry!.attributes.entryUUID).toBe('string');
    expect(Object.keys(entry!.attributes).map((k) => k.toLowerCase())).not.toContain('userpassword');
    expect(JSON.stringify(entry)).not.toContain('SSHA');
  });

  it('refuses a wrong password, an unknown name, another person’s password and an empty password', async () => {
    const s = sectionOf(plain);
    expect(await authenticateLdapUser(s, plain.adminPassword, 'alice', 'not-the-password')).toBeNull();
    expect(await authenticateLdapUser(s, plain.adminPassword, 'nobody', user(plain, 'alice').password)).toBeNull();
    expect(await authenticateLdapUser(s, plain.adminPassword, 'alice', user(plain, 'bob').password)).toBeNull();
    expect(await authenticateLdapUser(s, plain.adminPassword, 'alice', '')).toBeNull();
    expect(await authenticateLdapUser(s, plain.adminPassword, '', user(plain, 'alice').password)).toBeNull();
  });

  it('signs in people whose uid holds filter metacharacters with their exact name only', async () => {
    const s = sectionOf(plain);
    for (const uid of ['o*brien', 'a(b)\\c']) {
      const u = user(plain, uid);
      expect((await authenticateLdapUser(s, plain.adminPassword, uid, u.password))?.dn).toBe(u.dn);
    }
    // Unescaped, `o*` would be a substring filter matching o*brien alone.
    expect(await authenticateLdapUser(s, plain.adminPassword, 'o*', user(plain, 'o*brien').password)).toBeNull();
    expect(await authenticateLdapUser(s, plain.adminPassword, 'a(b)', user(plain, 'a(b)\\c').password)).toBeNull();
  });

  it('treats injection attempts as names: they match nobody, whoever’s password comes with them', async () => {
    // With this filter, the unescaped `alice)(uid=*` would give (&(objectClass=inetOrgPerson)(uid=alice)(uid=*)): alice alone.
    const s = sectionOf(plain, { UserSearchFilter: '(&(objectClass=inetOrgPerson)(uid={username}))' });
    const alice = user(plain, 'alice');
    for (const name of ['*', 'al*', '*)(uid=*', 'alice)(uid=*', 'admin)(|(uid=*', 'alice)(|(uid=*)', '*))(|(uid=*', 'alice\0', 'alice\\2a']) {
      expect(await authenticateLdapUser(s, plain.adminPassword, name, alice.password), name).toBeNull();
    }
    expect((await authenticateLdapUser(s, plain.adminPassword, 'alice', alice.password))?.uid).toBe('alice');
  });

  it('refuses a name that designates several entries', async () => {
    await plain.addUser({ uid: 'twin@dir.example', password: 'twin-one-pw', mail: 'one@dir.example', givenName: 'Twin', sn: 'One' });
    await plain.addUser({ uid: 'twin2', password: 'twin-two-pw', mail: 'twin@dir.example', givenName: 'Twin', sn: 'Two' });
    const s = sectionOf(plain, { UserSearchFilter: '(|(uid={username})(mail={username}))' });
    expect(await authenticateLdapUser(s, plain.adminPassword, 'twin@dir.example', 'twin-one-pw')).toBeNull();
    expect((await authenticateLdapUser(s, plain.adminPassword, 'one@dir.example', 'twin-one-pw'))?.uid).toBe('twin@dir.example');
  });

  it('answers unavailable when the service bind is refused or has no password, and never names the password', async () => {
    const alice = user(plain, 'alice');
    const wrong = await unavailable(authenticateLdapUser(sectionOf(plain), 'wrong-service-pw', 'alice', alice.password), 'wrong-service-pw', alice.password);
    expect(wrong.kind).toBe('service-bind');
    expect(wrong.message).toContain(plain.adminDn);
    expect((await unavailable(authenticateLdapUser(sectionOf(plain), undefined, 'alice', alice.password))).kind).toBe('service-bind');
  });

  it('answers unavailable for a filter that does not parse, without echoing the name typed', async () => {
    const err = await unavailable(
      authenticateLdapUser(sectionOf(plain, { UserSearchFilter: '(uid={username})(cn=*)' }), plain.adminPassword, 'typed-Secret1', 'pw'),
      'typed-Secret1',
    );
    expect(err.kind).toBe('config');
    expect(String((err.cause as Error).message)).not.toContain('typed-Secret1');
  });

  it('answers unavailable when UserSearchBase does not exist', async () => {
    const err = await unavailable(
      authenticateLdapUser(sectionOf(plain, { UserSearchBase: 'ou=nowhere,dc=gatehouse,dc=test' }), plain.adminPassword, 'alice', 'x'),
    );
    expect(err.kind).toBe('search');
    expect(err.message).toMatch(/noSuchObject \(32\)/);
  });
});

describe('authenticateLdapUser anonymously (no BindDn)', () => {
  it('searches without a service bind and still checks the password', async () => {
    const s = sectionOf(plain, { BindDn: undefined });
    const bob = user(plain, 'bob');
    expect((await authenticateLdapUser(s, undefined, 'bob', bob.password))?.mail).toBe(bob.mail);
    expect(await authenticateLdapUser(s, undefined, 'bob', 'wrong')).toBeNull();
  });
});

describe('StartTLS and ldaps', () => {
  it('signs in over StartTLS when the directory’s certificate is trusted', async () => {
    const alice = user(tls, 'alice');
    const entry = await authenticateLdapUser(sectionOf(tls, { StartTls: true }), tls.adminPassword, 'alice', alice.password, { caCertPem: tls.caCertPem });
    expect(entry?.dn).toBe(alice.dn);
    expect(await testLdapConnection(sectionOf(tls, { StartTls: true }), tls.adminPassword, { caCertPem: tls.caCertPem })).toEqual({ ok: true, entries: 1 });
  });

  it('signs in over ldaps:// with the trusted certificate, and refuses it untrusted', async () => {
    const alice = user(tls, 'alice');
    const section = sectionOf(tls, { Url: tls.ldapsUrl! });
    expect((await authenticateLdapUser(section, tls.adminPassword, 'alice', alice.password, { caCertPem: tls.caCertPem }))?.dn).toBe(alice.dn);
    // StartTls on an ldaps:// URL is not attempted twice.
    expect(await testLdapConnection({ ...section, StartTls: true }, tls.adminPassword, { caCertPem: tls.caCertPem })).toEqual({ ok: true, entries: 1 });
    expect((await unavailable(authenticateLdapUser(section, tls.adminPassword, 'alice', alice.password))).kind).toBe('tls');
  });

  it('refuses a certificate nobody vouches for, and one that names another host', async () => {
    const alice = user(tls, 'alice');
    const untrusted = await unavailable(authenticateLdapUser(sectionOf(tls, { StartTls: true }), tls.adminPassword, 'alice', alice.password), alice.password);
    expect(untrusted.kind).toBe('tls');
    // The certificate names 127.0.0.1 only; localhost reaches the same directory under another name.
    const otherHost = sectionOf(tls, { StartTls: true, Url: tls.url.replace('127.0.0.1', 'localhost') });
    const misnamed = await unavailable(authenticateLdapUser(otherHost, tls.adminPassword, 'alice', alice.password, { caCertPem: tls.caCertPem }));
    expect(misnamed.kind).toBe('tls');
  });

  it('answers unavailable when the directory offers no StartTLS', async () => {
    const err = await unavailable(authenticateLdapUser(sectionOf(plain, { StartTls: true }), plain.adminPassword, 'alice', user(plain, 'alice').password));
    expect(err.kind).toBe('tls');
    expect(err.message).toMatch(/StartTLS/);
  });

  it('does not fall back to plain text on an ldaps:// URL whose port speaks plain LDAP', async () => {
    const err = await unavailable(
      authenticateLdapUser(sectionOf(plain, { Url: plain.url.replace('ldap:', 'ldaps:') }), plain.adminPassword, 'alice', 'x', { timeoutMs: 2_000 }),
    );
    expect(['tls', 'connect', 'timeout']).toContain(err.kind);
  });
});

describe('a directory that cannot answer', () => {
  it('fails fast on a port where nothing listens, and after the directory stopped', async () => {
    const gone = await startSlapd();
    const section = sectionOf(gone);
    const password = gone.adminPassword;
    try {
      expect(await authenticateLdapUser(section, password, 'alice', user(gone, 'alice').password)).not.toBeNull();
    } finally {
      await gone.stop();
    }
    const started = Date.now();
    const err = await unavailable(authenticateLdapUser(section, password, 'alice', 'x'), password);
    expect(err.kind).toBe('connect');
    expect(err.message).toContain(gone.url);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('gives up at the deadline when the directory accepts connections but never answers', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    try {
      for (const StartTls of [false, true]) {
        const started = Date.now();
        const err = await unavailable(
          authenticateLdapUser({ Url: `ldap://127.0.0.1:${port}`, UserSearchBase: 'dc=x', StartTls }, undefined, 'alice', 'pw', { timeoutMs: 300 }),
        );
        expect(err.kind).toBe('timeout');
        expect(Date.now() - started).toBeLessThan(2_500);
      }
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise((r) => silent.close(r));
    }
  });
});

describe('testLdapConnection', () => {
  it('is ok with the right service account, anonymously, and counts the base entry', async () => {
    expect(await testLdapConnection(sectionOf(plain), plain.adminPassword)).toEqual({ ok: true, entries: 1 });
    expect(await testLdapConnection(sectionOf(plain, { BindDn: null }), undefined)).toEqual({ ok: true, entries: 1 });
  });

  it('says why it failed, without the password', async () => {
    const badBind = await testLdapConnection(sectionOf(plain), 'wrong-service-pw');
    expect(badBind.ok).toBe(false);
    if (!badBind.ok) {
      expect(badBind.reason).toMatch(/service bind .*invalidCredentials \(49\)/);
      expect(badBind.reason).not.toContain('wrong-service-pw');
    }
    const noBase = await testLdapConnection(sectionOf(plain, { UserSearchBase: 'ou=nowhere,dc=gatehouse,dc=test' }), plain.adminPassword);
    expect(noBase).toMatchObject({ ok: false, reason: expect.stringMatching(/ou=nowhere/) });
    const noTls = await testLdapConnection(sectionOf(plain, { StartTls: true }), plain.adminPassword);
    expect(noTls).toMatchObject({ ok: false, reason: expect.stringMatching(/StartTLS/) });
    const closed = await testLdapConnection(sectionOf(plain, { Url: 'ldap://127.0.0.1:1' }), plain.adminPassword);
    expect(closed).toEqual({ ok: false, reason: 'The directory at ldap://127.0.0.1:1 could not be reached.' });
  });
});

describe('the outbound policy (GATEHOUSE_OUTBOUND_ALLOW)', () => {
  it('refuses a directory at an address the operator does not list, without connecting, in any spelling', async () => {
    let connections = 0;
    const inside: Server = createServer((s) => {
      connections += 1;
      s.destroy();
    });
    await new Promise<void>((r) => inside.listen(0, '127.200.0.1', r));
    const port = (inside.address() as { port: number }).port;
    try {
      for (const Url of [
        `ldap://127.200.0.1:${port}`,
        `ldaps://127.200.0.1:${port}`,
        `ldap://0x7f.0xc8.0.1:${port}`,
        `ldap://2143813633:${port}`,
        `ldap://[::ffff:127.200.0.1]:${port}`,
      ]) {
        const result = await testLdapConnection({ Url, UserSearchBase: 'dc=x', StartTls: true }, undefined);
        expect(result, Url).toMatchObject({
          ok: false,
          reason: expect.stringMatching(/^The directory at ldaps?:\/\/\S+ is at an address that is not allowed\.$/),
        });
      }
      expect(connections).toBe(0);
    } finally {
      await new Promise((r) => inside.close(r));
    }
  });

  it('refuses private and metadata addresses before any packet leaves, and a name that resolves to loopback when nothing is listed', async () => {
    for (const Url of ['ldap://10.1.2.3', 'ldaps://169.254.169.254', 'ldap://[fd00:ec2::254]:389', 'ldap://192.168.0.1:636']) {
      const err = await unavailable(authenticateLdapUser({ Url, UserSearchBase: 'dc=x' }, undefined, 'alice', 'pw'));
      expect(err.kind, Url).toBe('config');
      expect(err.message, Url).toMatch(/is at an address that is not allowed\.$/);
    }
    const byName = await unavailable(
      authenticateLdapUser(sectionOf(plain, { Url: plain.url.replace('127.0.0.1', 'localhost') }), plain.adminPassword, 'alice', 'pw', {
        allow: EMPTY_ALLOW_LIST,
      }),
    );
    expect(byName.kind).toBe('config');
  });
});
