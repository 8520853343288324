import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKdc, type Kdc } from '@/e2e/shared/peers/kdc';
import { shared } from '@/lib/runtime/shared';
import { loadKerberosBinding, type KerberosBinding, type KerberosClient } from './binding';
import { keytabPrincipals } from './keytab';
import { removeKeytabFiles } from './keytab-file';
import { acceptSpnegoToken, KerberosKeytabError, kerberosAvailability, userNameInRealm } from './spnego';

// Against a real MIT KDC (e2e/shared/peers/kdc.ts): tickets from kinit, client tokens made in-process
// with the same package (as a browser or curl would make them), and curl --negotiate end to end.

const APP = 'app.gatehouse.test';
const OTHER = 'other.gatehouse.test';
const run = promisify(execFile);

let kdc: Kdc;
let otherKdc: Kdc;
let binding: KerberosBinding;

/** Runs `fn` with these environment variables set, then puts the old values back. */
async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** A SPNEGO token of `user` for HTTP@host, as a browser sends it after `Negotiate `; the client finishes mutual authentication with `complete`. */
async function clientToken(from: Kdc, user: string, host: string): Promise<{ token: string; complete(response: string): Promise<boolean> }> {
  const { env } = await from.kinit(user);
  let client: KerberosClient | undefined;
  const token = await withEnv(env, async () => {
    client = await binding.initializeClient(`HTTP@${host}`, { mechOID: binding.GSS_MECH_OID_SPNEGO, flags: binding.GSS_C_MUTUAL_FLAG });
    return client.step('');
  });
  return {
    token,
    complete: (response) =>
      withEnv(env, async () => {
        await client!.step(response);
        return client!.contextComplete;
      }),
  };
}

beforeAll(async () => {
  [kdc, otherKdc] = await Promise.all([startKdc({ serviceHosts: [APP, OTHER] }), startKdc({ serviceHosts: [APP], realm: 'OTHER.TEST' })]);
  const loaded = await loadKerberosBinding();
  if (!('binding' in loaded)) throw new Error(loaded.reason);
  binding = loaded.binding;
}, 120_000);

afterAll(async () => {
  // Test workers are ended without an 'exit' event, so the keytab directory is removed here.
  await Promise.all([kdc?.stop(), otherKdc?.stop(), removeKeytabFiles()]);
});

describe('acceptSpnegoToken against an MIT KDC', { timeout: 60_000 }, () => {
  it('the package is available here', async () => {
    expect(await kerberosAvailability()).toEqual({ available: true });
  });

  it("accepts alice's ticket for the service, with a mutual-authentication token the client accepts, and no krb5.conf on the server side", async () => {
    const alice = await clientToken(kdc, 'alice', APP);
    const result = await withEnv({ KRB5_CONFIG: '/nonexistent/krb5.conf' }, () =>
      acceptSpnegoToken(kdc.keytabFor(APP), kdc.servicePrincipal(APP), alice.token),
    );
    expect(result?.principal).toBe(`alice@${kdc.realm}`);
    expect(userNameInRealm(result!.principal, kdc.realm)).toBe('alice');
    expect(result?.responseToken).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(await alice.complete(result!.responseToken!)).toBe(true);
  });

  it('refuses the same token a second time (the replay cache)', async () => {
    const bob = await clientToken(kdc, 'bob', APP);
    expect((await acceptSpnegoToken(kdc.keytabFor(APP), kdc.servicePrincipal(APP), bob.token))?.principal).toBe(`bob@${kdc.realm}`);
    expect(await acceptSpnegoToken(kdc.keytabFor(APP), kdc.servicePrincipal(APP), bob.token)).toBeNull();
  });

  it("refuses a ticket for another host's principal", async () => {
    const forOther = await clientToken(kdc, 'alice', OTHER);
    expect(await acceptSpnegoToken(kdc.keytabFor(APP), kdc.servicePrincipal(APP), forOther.token)).toBeNull();
    // The same token is good for the principal it was made for.
    expect((await acceptSpnegoToken(kdc.keytabFor(OTHER), kdc.servicePrincipal(OTHER), forOther.token))?.principal).toBe(`alice@${kdc.realm}`);
  });

  it('refuses garbage', async () => {
    for (const token of ['', 'not base64!', 'Zm9vYmFy', 'YIIDBwYGKwYBBQUCoIIC', 'A'.repeat(200_000)])
      expect(await acceptSpnegoToken(kdc.keytabFor(APP), kdc.servicePrincipal(APP), token)).toBeNull();
  });

  it("refuses a ticket of one KDC with another KDC's keytab for the same host name", async () => {
    const alice = await clientToken(kdc, 'alice', APP);
    expect(await acceptSpnegoToken(otherKdc.keytabFor(APP), otherKdc.servicePrincipal(APP), alice.token)).toBeNull();
  });

  it('uses only the keys of the configured principal, realm included, when a keytab holds more', async () => {
    // MIT accepts with any key of the host-based name HTTP@host whatever its realm; the filter makes
    // the provider's ServicePrincipal decide.
    const both = Buffer.concat([otherKdc.keytabFor(APP), kdc.keytabFor(APP).subarray(2)]);
    expect(keytabPrincipals(both)).toEqual([otherKdc.servicePrincipal(APP), kdc.servicePrincipal(APP)]);
    const alice = await clientToken(kdc, 'alice', APP);
    expect(await acceptSpnegoToken(both, otherKdc.servicePrincipal(APP), alice.token)).toBeNull();
    const again = await clientToken(kdc, 'alice', APP);
    expect((await acceptSpnegoToken(both, kdc.servicePrincipal(APP), again.token))?.principal).toBe(`alice@${kdc.realm}`);
  });

  it('says clearly when the keytab cannot serve the principal', async () => {
    const alice = await clientToken(kdc, 'alice', APP);
    await expect(acceptSpnegoToken(kdc.keytabFor(OTHER), kdc.servicePrincipal(APP), alice.token)).rejects.toThrow(
      new KerberosKeytabError(`the keytab holds no key for ${kdc.servicePrincipal(APP)} (it holds ${kdc.servicePrincipal(OTHER)})`),
    );
    await expect(acceptSpnegoToken(Buffer.from('not a keytab'), kdc.servicePrincipal(APP), alice.token)).rejects.toThrow(KerberosKeytabError);
    await expect(acceptSpnegoToken(kdc.keytabFor(APP), 'alice', alice.token)).rejects.toThrow(KerberosKeytabError);
  });

  it('keeps acceptances for two realms apart when they run at once, and puts KRB5_KTNAME back', async () => {
    // The client side sets the environment too: its tokens are made one after the other.
    const a = await clientToken(kdc, 'alice', APP);
    const b = await clientToken(otherKdc, 'bob', APP);
    const c = await clientToken(kdc, 'bob', OTHER);
    const results = await withEnv({ KRB5_KTNAME: 'FILE:/etc/operator.keytab' }, async () => {
      const all = await Promise.all([
        acceptSpnegoToken(kdc.keytabFor(APP), kdc.servicePrincipal(APP), a.token),
        acceptSpnegoToken(otherKdc.keytabFor(APP), otherKdc.servicePrincipal(APP), b.token),
        acceptSpnegoToken(kdc.keytabFor(OTHER), kdc.servicePrincipal(OTHER), c.token),
      ]);
      expect(process.env.KRB5_KTNAME).toBe('FILE:/etc/operator.keytab');
      return all;
    });
    expect(results.map((r) => r?.principal)).toEqual([`alice@${kdc.realm}`, `bob@${otherKdc.realm}`, `bob@${kdc.realm}`]);
  });

  it('keeps keytab files private: the directory 0700, the files 0600', async () => {
    const files = shared<{ dir: Promise<string> | undefined; paths: Map<string, string> }>('kerberos.keytabFiles', () => {
      throw new Error('no keytab was written');
    });
    expect((await stat(await files.dir!)).mode & 0o777).toBe(0o700);
    expect(files.paths.size).toBeGreaterThan(0);
    for (const path of files.paths.values()) expect((await stat(path)).mode & 0o777).toBe(0o600);
  });
});

describe('userNameInRealm', () => {
  it('takes user principals of the realm only', () => {
    expect(userNameInRealm('alice@CORP.TEST', 'CORP.TEST')).toBe('alice');
    expect(userNameInRealm('alice@corp.test', 'CORP.TEST')).toBeNull();
    expect(userNameInRealm('alice@EVIL.TEST', 'CORP.TEST')).toBeNull();
    expect(userNameInRealm('alice@CORP.TEST@EVIL.TEST', 'CORP.TEST')).toBeNull();
    expect(userNameInRealm('HTTP/app@CORP.TEST', 'CORP.TEST')).toBeNull();
    expect(userNameInRealm('@CORP.TEST', 'CORP.TEST')).toBeNull();
  });
});

describe('curl --negotiate against a node:http server that accepts with acceptSpnegoToken', { timeout: 60_000 }, () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const header = req.headers.authorization ?? '';
      const token = /^Negotiate (.+)$/.exec(header)?.[1];
      if (!token) {
        res.writeHead(401, { 'www-authenticate': 'Negotiate' }).end('sign in');
        return;
      }
      acceptSpnegoToken(kdc.keytabFor(APP), kdc.servicePrincipal(APP), token).then(
        (result) => {
          if (!result) res.writeHead(401, { 'www-authenticate': 'Negotiate' }).end('refused');
          else res.writeHead(200, result.responseToken ? { 'www-authenticate': `Negotiate ${result.responseToken}` } : {}).end(result.principal);
        },
        (e: Error) => res.writeHead(500).end(e.message),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const curl = (env: Record<string, string>) =>
    run('curl', ['-sS', '--negotiate', '-u', ':', '--resolve', `${APP}:${port}:127.0.0.1`, '-w', '\n%{http_code}', `http://${APP}:${port}/`], {
      env: { ...process.env, ...env },
    });

  it('signs alice in with her ticket from kinit', async () => {
    const { stdout: features } = await run('curl', ['-V']);
    expect(features).toMatch(/GSS-API/);
    const { env } = await kdc.kinit('alice');
    const { stdout } = await curl(env);
    expect(stdout.split('\n')).toEqual([`alice@${kdc.realm}`, '200']);
  });

  it('is refused with a ticket of another realm for the same host name', async () => {
    const { env } = await otherKdc.kinit('alice');
    const { stdout } = await curl(env);
    expect(stdout.split('\n').at(-1)).toBe('401');
  });
});
