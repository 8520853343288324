import { readProcessEnv, setProcessEnv } from '@/lib/config/env';
import { logInfo } from '@/lib/log/logger';
import { shared } from '@/lib/runtime/shared';
import { loadKerberosBinding } from './binding';
import { KeytabFormatError, keytabFor, keytabPrincipals } from './keytab';
import { keytabFile } from './keytab-file';

// Accepting a SPNEGO token (`Authorization: Negotiate <base64>`, RFC 4559) with MIT's GSSAPI through
// the optional `kerberos` package.
//
// The package's initializeServer(service) acquires acceptor credentials with gss_acquire_cred, and MIT
// resolves the keytab for them from the process environment (KRB5_KTNAME) at that moment; the package
// has no per-call keytab option (it never calls gss_acquire_cred_from or
// krb5_gss_register_acceptor_identity). Gatehouse serves many realms, each login provider with its
// own keytab, so every acceptance runs under one process-wide lock that points KRB5_KTNAME at that
// provider's keytab file (keytab-file.ts) for the duration of initializeServer and step, and puts the
// previous value back after. Kerberos sign-ins are one request per session, so the serialisation
// costs little. The server process needs no krb5.conf: an acceptor with a keytab talks to no KDC
// (docs/environment.md, "Kerberos").

export type KerberosAvailability = { available: true } | { available: false; reason: string };

/** The `kerberos` package is missing or cannot load; `message` says why (shown for the flavor). */
export class KerberosUnavailableError extends Error {}

/** The provider's keytab cannot serve its service principal (not a keytab, or no key for it). */
export class KerberosKeytabError extends Error {}

/** Loads the optional `kerberos` package on first use; never throws. */
export async function kerberosAvailability(): Promise<KerberosAvailability> {
  const loaded = await loadKerberosBinding();
  return 'binding' in loaded ? { available: true } : { available: false, reason: loaded.reason };
}

/** `HTTP/host@REALM` split; the GSS host-based name the package takes is `HTTP@host`. */
export function parseServicePrincipal(principal: string): { service: string; host: string; realm: string } | null {
  const m = /^([^/@\s]+)\/([^/@\s]+)@([^/@\s]+)$/.exec(principal);
  return m ? { service: m[1], host: m[2], realm: m[3] } : null;
}

/** The user name of a client principal of `realm` (`alice@REALM` -> `alice`), or null for another realm or a service principal. Realms compare case-sensitively, as Kerberos does. */
export function userNameInRealm(principal: string, realm: string): string | null {
  const at = principal.lastIndexOf('@');
  if (at <= 0 || principal.slice(at + 1) !== realm) return null;
  const name = principal.slice(0, at);
  return name.includes('/') ? null : name;
}

// A Kerberos ticket with a Windows PAC runs to a few tens of KB; MIT and Windows cap the token at 64 KB.
const MAX_TOKEN_CHARS = 96 * 1024;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Runs `fn` alone in the process: no other acceptance sees the environment it sets. */
async function exclusively<T>(fn: () => Promise<T>): Promise<T> {
  const lock = shared('kerberos.acceptorLock', () => ({ tail: Promise.resolve() }));
  const previous = lock.tail;
  let release!: () => void;
  lock.tail = new Promise<void>((r) => (release = r));
  await previous;
  try {
    return await fn();
  } finally {
    release();
  }
}

/**
 * Accepts one SPNEGO token (the base64 after `Negotiate `) for `servicePrincipal` (`HTTP/<host>@<REALM>`),
 * with the keys `keytab` holds for exactly that principal. Answers the client principal
 * (`alice@REALM`, compare its realm with `userNameInRealm`) and the token for mutual authentication
 * (`WWW-Authenticate: Negotiate <responseToken>`), or null for a token that does not prove a ticket
 * for that principal (malformed, another service's, another KDC's, a replay, expired, clock skew).
 * Throws KerberosUnavailableError without the package, KerberosKeytabError for a keytab that cannot serve.
 */
export async function acceptSpnegoToken(
  keytab: Buffer,
  servicePrincipal: string,
  token: string,
): Promise<{ principal: string; responseToken?: string } | null> {
  const loaded = await loadKerberosBinding();
  if (!('binding' in loaded)) throw new KerberosUnavailableError(loaded.reason);
  const parts = parseServicePrincipal(servicePrincipal);
  if (!parts) throw new KerberosKeytabError(`the service principal ${JSON.stringify(servicePrincipal)} is not of the form HTTP/<host>@<REALM>`);
  const own = ownKeys(keytab, servicePrincipal);
  if (token.length === 0 || token.length > MAX_TOKEN_CHARS || !BASE64.test(token)) return null;

  return exclusively(async () => {
    const path = await keytabFile(own);
    const before = readProcessEnv('KRB5_KTNAME');
    setProcessEnv('KRB5_KTNAME', `FILE:${path}`);
    try {
      let server;
      try {
        server = await loaded.binding.initializeServer(`${parts.service}@${parts.host}`);
      } catch (e) {
        throw new KerberosKeytabError(`GSSAPI cannot use the keytab for ${servicePrincipal}: ${(e as Error).message}`, { cause: e });
      }
      try {
        await server.step(token);
      } catch (e) {
        // GSS's reason (no secret in it) helps an operator with clock skew or a stale keytab version.
        logInfo('Kerberos token refused', { servicePrincipal, reason: (e as Error).message });
        return null;
      }
      if (!server.contextComplete || !server.username) return null;
      return { principal: server.username, ...(server.response ? { responseToken: server.response } : {}) };
    } finally {
      setProcessEnv('KRB5_KTNAME', before);
    }
  });
}

/** The keytab reduced to the entries of `servicePrincipal`, so no other key in the file can accept a ticket. */
function ownKeys(keytab: Buffer, servicePrincipal: string): Buffer {
  try {
    const own = keytabFor(keytab, servicePrincipal);
    if (own) return own;
    const held = keytabPrincipals(keytab);
    throw new KerberosKeytabError(`the keytab holds no key for ${servicePrincipal} (it holds ${held.length ? held.join(', ') : 'no keys'})`);
  } catch (e) {
    if (e instanceof KeytabFormatError) throw new KerberosKeytabError(`the keytab cannot be read: ${e.message}`, { cause: e });
    throw e;
  }
}
