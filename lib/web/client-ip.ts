import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

// server.ts records the socket's peer address in this header after deleting any value a client
// sent, so route handlers (which cannot see the socket) get an address nobody can forge.
export const CLIENT_IP_HEADER = 'x-gatehouse-client-ip';
/** Headers with this prefix are internal: server.ts strips them from every incoming request. */
export const INTERNAL_HEADER_PREFIX = 'x-gatehouse-';

export function clientIp(headers: Headers): string {
  return headers.get(CLIENT_IP_HEADER) ?? 'unknown';
}

const compiled = new Map<string, ReturnType<typeof proxyaddr.compile>>();

/**
 * The client's address: the socket's peer, or, when that peer is one of the trusted proxies, the
 * right-most address of X-Forwarded-For that is not itself a trusted proxy (proxy-addr, the
 * algorithm Express uses). Without trusted proxies the header is never believed.
 */
export function clientAddressOf(req: IncomingMessage, trustedProxies: readonly string[]): string {
  const key = trustedProxies.join(',');
  let trust = compiled.get(key);
  if (!trust) compiled.set(key, (trust = proxyaddr.compile([...trustedProxies])));
  const address = req.socket.remoteAddress ? proxyaddr(req, trust) : undefined;
  return (address ?? 'unknown').replace(/^::ffff:/, '');
}
