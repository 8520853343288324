import { describe, expect, it } from 'vitest';
import { challengeBytes, isAllowedOrigin, readClientData, userHandleFor } from './webauthn';

const http3000 = { publicScheme: 'http', publicPort: 3000 } as const;
const https443 = { publicScheme: 'https', publicPort: 443 } as const;

describe('isAllowedOrigin', () => {
  it('accepts the primary domain and its subdomains on the public scheme and port', () => {
    expect(isAllowedOrigin('http://acme.localhost:3000', 'acme.localhost', http3000)).toBe(true);
    expect(isAllowedOrigin('http://shop.acme.localhost:3000', 'acme.localhost', http3000)).toBe(true);
    expect(isAllowedOrigin('https://id.acme.test', 'id.acme.test', https443)).toBe(true);
    expect(isAllowedOrigin('https://a.b.id.acme.test', 'ID.acme.test', https443)).toBe(true);
  });

  it.each([
    ['http://evil.localhost:3000', 'another host'],
    ['http://notacme.localhost:3000', 'a host that merely ends with the name'],
    ['http://localhost:3000', 'the parent domain'],
    ['https://acme.localhost:3000', 'another scheme'],
    ['http://acme.localhost:3001', 'another port'],
    ['http://acme.localhost', 'the default port'],
    ['http://acme.localhost:3000/path', 'not a serialised origin'],
    ['null', 'an opaque origin'],
    ['', 'nothing'],
  ])('refuses %s (%s)', (origin) => {
    expect(isAllowedOrigin(origin, 'acme.localhost', http3000)).toBe(false);
  });

  it('leaves the default port out for https', () => {
    expect(isAllowedOrigin('https://id.acme.test:443', 'id.acme.test', https443)).toBe(false);
    expect(isAllowedOrigin('https://id.acme.test:8443', 'id.acme.test', https443)).toBe(false);
  });
});

describe('readClientData', () => {
  const encode = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

  it('reads type, challenge and origin', () => {
    expect(readClientData(encode({ type: 'webauthn.get', challenge: 'abc', origin: 'http://x', crossOrigin: false }))).toEqual({
      type: 'webauthn.get',
      challenge: 'abc',
      origin: 'http://x',
    });
  });

  it.each([undefined, 42, '', 'not base64 !', encode({ type: 'webauthn.get' }), encode('text'), Buffer.from('{').toString('base64url'), 'A'.repeat(9000)])(
    'refuses %j',
    (v) => {
      expect(readClientData(v)).toBeNull();
    },
  );
});

describe('challenges and user handles', () => {
  it('a ceremony token survives the trip through the options unchanged', () => {
    const token = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7)).toString('base64url');
    expect(Buffer.from(challengeBytes(token)).toString('base64url')).toBe(token);
  });

  it('the user handle is stable, 32 bytes, realm-specific, and not the user id', () => {
    const a = userHandleFor('realm-1', 'user-1');
    expect(a).toHaveLength(32);
    expect(Buffer.from(a).equals(Buffer.from(userHandleFor('realm-1', 'user-1')))).toBe(true);
    expect(Buffer.from(a).equals(Buffer.from(userHandleFor('realm-2', 'user-1')))).toBe(false);
    expect(Buffer.from(a).toString('utf8')).not.toContain('user-1');
  });
});
