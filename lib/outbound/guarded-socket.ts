import { lookup, type LookupAddress } from 'node:dns';
import { connect as netConnect, Socket, type LookupFunction } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { addressPermitted, canonicalAddress, type AllowList } from './address-policy';

// Sockets to an address a tenant chose (address-policy.ts), checked twice: the host name is resolved
// here and only the addresses the policy permits are handed to connect (an address literal is
// checked before connecting), so no packet leaves for a refused address; and once connected, the
// socket's own remote address is checked again and the socket destroyed if it is refused, so
// neither a DNS answer that changes between two lookups (rebinding) nor a path this code did not
// foresee gets a request through.

/** A connection the outbound policy refused: the address is not allowed. */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
  readonly code = 'GATEHOUSE_OUTBOUND_REFUSED';
  constructor(readonly host: string) {
    super(`the address of ${host} is not allowed (GATEHOUSE_OUTBOUND_ALLOW)`);
  }
}

/** Whether `error` or one of its causes is the policy's refusal. */
export function isOutboundRefusal(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof OutboundRefusedError) return true;
  }
  return false;
}

/** net.connect's `lookup`, answering only the addresses of `host` the policy permits. */
function permittedLookup(allow: AllowList, host: string): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const permitted = addresses.filter((a) => addressPermitted(allow, host, a.address));
      if (!permitted.length) return callback(new OutboundRefusedError(host), '', 0);
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, permitted);
      callback(null, permitted[0].address, permitted[0].family);
    });
  };
}

/**
 * A socket that never connected and fails with `error` (emitted on the next tick, so the caller's
 * listeners hear it). Destroyed at once: an idle new Socket would report itself `open`.
 */
function failedSocket(error: Error): Socket {
  const socket = new Socket();
  socket.destroy(error);
  return socket;
}

export type OutboundTarget = {
  /** The host as the URL names it: a name, or an address (brackets allowed). */
  host: string;
  port: number;
  /** Set: TLS with these options (`servername` defaults to the host name). */
  tls?: ConnectionOptions;
};

/**
 * A TCP (or TLS) connection to `target` under the outbound policy. Refused addresses make the socket
 * fail with OutboundRefusedError, before connecting when the address is known in advance.
 */
export function connectOutbound(allow: AllowList, target: OutboundTarget): Socket {
  const literal = canonicalAddress(target.host);
  const host = literal ? literal.address : target.host.toLowerCase();
  if (literal && !addressPermitted(allow, host, literal.address)) return failedSocket(new OutboundRefusedError(target.host));
  const where = { host, port: target.port, ...(literal ? {} : { lookup: permittedLookup(allow, host) }) };
  const socket = target.tls ? tlsConnect({ ...target.tls, ...where, servername: target.tls.servername ?? (literal ? undefined : host) }) : netConnect(where);
  socket.once('connect', () => {
    if (socket.destroyed) return;
    const remote = socket.remoteAddress;
    // No address to check: the peer has closed the connection already. Nothing is sent on it.
    if (remote === undefined) socket.destroy(Object.assign(new Error('the connection closed before its address could be checked'), { code: 'ECONNRESET' }));
    else if (!addressPermitted(allow, host, remote)) socket.destroy(new OutboundRefusedError(target.host));
  });
  return socket;
}
