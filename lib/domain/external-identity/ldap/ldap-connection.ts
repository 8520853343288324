import { isIP, type connect as netConnect } from 'node:net';
import { connect as tlsConnect, createSecureContext, rootCertificates, type ConnectionOptions, type SecureContext } from 'node:tls';
import { Client, ResultCodeError } from 'ldapts';
import type { AllowList } from '../../../outbound/address-policy';
import { connectOutbound, isOutboundRefusal } from '../../../outbound/guarded-socket';
import { outboundAllowList } from '../../../outbound/outbound-fetch';
import type { LdapSection } from '../sections';

// One short-lived connection to a provider's directory: opened per sign-in or test, upgraded with
// StartTLS when the provider asks for it, bounded by one deadline, always closed. Whatever keeps the
// directory from answering becomes an LdapUnavailableError whose message says what failed and never
// carries a password (it is built from the URL, the stage and the library's or server's reason).
//
// The directory's address is a tenant's choice, so the connection goes through the outbound policy
// (lib/outbound, CONTRACT.md "Outbound policy"): the host is resolved and checked before connecting,
// and the connected socket checked again. What keeps a connection from being made is told in two
// generic reasons (the address is not allowed; the directory cannot be reached), never the socket
// error, which would make "test connection" a port scanner.

const DEFAULT_LDAP_TIMEOUT_MS = 5_000;

export type LdapConnectionOptions = {
  /** The whole exchange (connect, StartTLS, binds, search) must finish within this; default 5 s. */
  timeoutMs?: number;
  /** A CA certificate (PEM) trusted besides Node's default store, for ldaps:// and StartTLS. */
  caCertPem?: string;
  /** The operator's GATEHOUSE_OUTBOUND_ALLOW unless given (tests). */
  allow?: AllowList;
};

/** What failed: the provider's settings, reaching it, TLS, time, the service account's bind, the user search, or an unexpected answer to the user's bind. */
export type LdapUnavailableKind = 'config' | 'connect' | 'tls' | 'timeout' | 'service-bind' | 'search' | 'directory';

/** The directory cannot answer: unreachable, TLS refused or untrusted, too slow, or the service bind refused. */
export class LdapUnavailableError extends Error {
  override name = 'LdapUnavailableError';
  constructor(
    readonly kind: LdapUnavailableKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type LdapStage = 'starttls' | 'service-bind' | 'search' | 'user-bind';

/** Runs `work` on a fresh connection (StartTLS first when asked), then closes it, whatever happened. */
export async function withLdapConnection<T>(section: LdapSection, opts: LdapConnectionOptions | undefined, work: (client: Client) => Promise<T>): Promise<T> {
  const timeoutMs = opts?.timeoutMs ?? DEFAULT_LDAP_TIMEOUT_MS;
  const target = describeTarget(section.Url);
  const tlsOptions = tlsOptionsFor(section.Url, opts?.caCertPem);
  let client: Client;
  try {
    // Only for ldaps://: ldapts treats any tlsOptions as "connect with TLS", even on an ldap:// URL.
    client = new Client({
      url: section.Url,
      timeout: timeoutMs,
      connectTimeout: timeoutMs,
      tlsOptions: isLdaps(section.Url) ? tlsOptions : undefined,
      strictDN: false,
      ...guardedTransport(opts?.allow ?? outboundAllowList()),
    });
  } catch (e) {
    throw new LdapUnavailableError('config', `${target} is not a usable LDAP URL.`, { cause: e });
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LdapUnavailableError('timeout', `The directory at ${target} did not answer within ${timeoutMs} ms.`)), timeoutMs);
  });
  const exchange = (async () => {
    if (section.StartTls && !isLdaps(section.Url)) await ldapStep(section, 'starttls', () => client.startTLS({ ...tlsOptions }));
    return work(client);
  })();
  // When the deadline wins, the exchange fails later (its socket is closed below): not an unhandled rejection.
  exchange.catch(() => undefined);
  try {
    return await Promise.race([exchange, deadline]);
  } finally {
    clearTimeout(timer);
    await settleWithin(client.unbind(), 1_000);
  }
}

/**
 * ldapts's transport hooks under the outbound policy. `createSecureConnection` is also how ldapts
 * upgrades the guarded socket it already holds for StartTLS (one options argument): that is plain TLS.
 */
function guardedTransport(allow: AllowList): { createConnection: typeof netConnect; createSecureConnection: typeof tlsConnect } {
  const createConnection = ((port: number, host: string) => connectOutbound(allow, { host, port })) as typeof netConnect;
  const createSecureConnection = ((...args: unknown[]) =>
    typeof args[0] === 'number'
      ? connectOutbound(allow, { port: args[0], host: String(args[1]), tls: (args[2] as ConnectionOptions | undefined) ?? {} })
      : tlsConnect(args[0] as ConnectionOptions)) as typeof tlsConnect;
  return { createConnection, createSecureConnection };
}

/** Runs one step of the exchange, turning what the directory or the network says into LdapUnavailableError. */
export async function ldapStep<T>(section: LdapSection, stage: LdapStage, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    throw unavailable(section, stage, e);
  }
}

function unavailable(section: LdapSection, stage: LdapStage, e: unknown): LdapUnavailableError {
  if (e instanceof LdapUnavailableError) return e;
  const target = describeTarget(section.Url);
  if (isOutboundRefusal(e)) return new LdapUnavailableError('config', `The directory at ${target} is at an address that is not allowed.`, { cause: e });
  const code = (e as { code?: unknown }).code;
  const reason = describeCause(e);
  if ((typeof code === 'string' && NETWORK_CODES.has(code)) || isClosedConnection(e))
    return new LdapUnavailableError('connect', `The directory at ${target} could not be reached.`, { cause: e });
  if (e instanceof Error && e.message === 'Connection timeout')
    return new LdapUnavailableError('timeout', `Connecting to the directory at ${target} timed out.`, { cause: e });
  if (isTlsError(e)) return new LdapUnavailableError('tls', `TLS with the directory at ${target} failed: ${reason}.`, { cause: e });
  switch (stage) {
    case 'starttls':
      return new LdapUnavailableError('tls', `The directory at ${target} refused StartTLS: ${reason}.`, { cause: e });
    case 'service-bind':
      return new LdapUnavailableError('service-bind', `The directory at ${target} refused the service bind as ${section.BindDn ?? '(anonymous)'}: ${reason}.`, {
        cause: e,
      });
    case 'search':
      return new LdapUnavailableError('search', `Searching ${section.UserSearchBase} at ${target} failed: ${reason}.`, { cause: e });
    case 'user-bind':
      return new LdapUnavailableError('directory', `The directory at ${target} refused the user's bind for another reason than the password: ${reason}.`, {
        cause: e,
      });
  }
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ECONNABORTED']);

/** ldapts's plain Errors for a connection the far side closed, or that never opened. */
function isClosedConnection(e: unknown): boolean {
  return (
    e instanceof Error &&
    /^(Connection closed before message response was received|Socket connection not established|Socket error\. Message type)/.test(e.message)
  );
}

function isTlsError(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  // Node's own TLS codes, OpenSSL's (ERR_SSL_*) and the certificate verification codes (X509_V_ERR_* without the prefix).
  return code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME/.test(code);
}

// RFC 4511 section 4.1.9 names of the result codes a misconfigured or unwell directory answers with.
const RESULT_NAMES: Record<number, string> = {
  1: 'operationsError',
  2: 'protocolError',
  3: 'timeLimitExceeded',
  8: 'strongerAuthRequired',
  13: 'confidentialityRequired',
  32: 'noSuchObject',
  34: 'invalidDNSyntax',
  48: 'inappropriateAuthentication',
  49: 'invalidCredentials',
  50: 'insufficientAccessRights',
  51: 'busy',
  52: 'unavailable',
  53: 'unwillingToPerform',
  80: 'other',
};

/** A short reason: the LDAP result (name, code, the server's diagnostic), or the system error with its code. */
function describeCause(e: unknown): string {
  if (e instanceof ResultCodeError) {
    // ldapts writes "<diagnostic message> Code: 0x<code>".
    const diagnostic = e.message.replace(/\s*Code: 0x[0-9a-f]+$/i, '').trim();
    return `${RESULT_NAMES[e.code] ?? 'LDAP result'} (${e.code})${diagnostic ? `: ${diagnostic}` : ''}`;
  }
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    const text = e.message.split('\n')[0];
    return typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
  }
  return String(e);
}

/** The URL as configured, without anything that could be a credential (an LDAP URL carries none, but userinfo is possible). */
function describeTarget(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'the configured URL';
  }
}

function isLdaps(url: string): boolean {
  return /^ldaps:/i.test(url);
}

function tlsOptionsFor(url: string, caCertPem: string | undefined): ConnectionOptions {
  let host = 'localhost';
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    // ldapts reports the malformed URL itself.
  }
  return {
    // The certificate must name the host of the URL; `servername` (SNI) may not be an IP address (RFC 6066).
    host,
    ...(isIP(host) ? {} : { servername: host }),
    ...(caCertPem ? { secureContext: secureContextTrusting(caCertPem) } : {}),
    minVersion: 'TLSv1.2',
  };
}

// `ca` replaces Node's default store, so the public roots are kept beside the configured CA. Parsing
// them costs about 40 ms (measured: a StartTLS sign-in took 46-54 ms with a fresh context, 3-5 ms
// with a kept one), so the context is built once per CA; providers are few, the map stays small.
const MAX_KEPT_CONTEXTS = 16;
const keptContexts = new Map<string, SecureContext>();

function secureContextTrusting(caCertPem: string): SecureContext {
  let context = keptContexts.get(caCertPem);
  if (!context) {
    context = createSecureContext({ ca: [...rootCertificates, caCertPem], minVersion: 'TLSv1.2' });
    if (keptContexts.size >= MAX_KEPT_CONTEXTS) keptContexts.delete(keptContexts.keys().next().value!);
    keptContexts.set(caCertPem, context);
  }
  return context;
}

async function settleWithin(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}
