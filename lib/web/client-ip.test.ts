import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddressOf } from './client-ip';

const req = (peer: string, forwardedFor?: string) =>
  ({ socket: { remoteAddress: peer }, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} }) as unknown as IncomingMessage;

describe('the client address', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddressOf(req('::ffff:203.0.113.7', '10.0.0.1'), [])).toBe('203.0.113.7');
  });

  it('is the forwarded address when the peer is a trusted proxy', () => {
    expect(clientAddressOf(req('10.1.0.5', '198.51.100.2'), ['10.1.0.0/16'])).toBe('198.51.100.2');
  });

  it('skips trusted hops from the right and stops at the first untrusted one (a client cannot name itself)', () => {
    // The client sent "X-Forwarded-For: 1.2.3.4"; the outer proxy appended the client's real address, then the inner one.
    expect(clientAddressOf(req('10.1.0.5', '1.2.3.4, 198.51.100.2, 10.1.0.9'), ['10.1.0.0/16'])).toBe('198.51.100.2');
  });

  it('is the peer when the peer is not trusted, even with trusted proxies configured', () => {
    expect(clientAddressOf(req('203.0.113.7', '1.2.3.4'), ['10.1.0.0/16'])).toBe('203.0.113.7');
  });
});
