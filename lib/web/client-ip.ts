// server.ts records the socket's peer address in this header after deleting any value a client
// sent, so route handlers (which cannot see the socket) get an address nobody can forge.
export const CLIENT_IP_HEADER = 'x-gatehouse-client-ip';
/** Headers with this prefix are internal: server.ts strips them from every incoming request. */
export const INTERNAL_HEADER_PREFIX = 'x-gatehouse-';

export function clientIp(headers: Headers): string {
  return headers.get(CLIENT_IP_HEADER) ?? 'unknown';
}
