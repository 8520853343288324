import { describe, expect, it } from 'vitest';
import { loadSettings } from '../config/env';
import { assertSameOrigin } from '../web/csrf';

const req = (method: string, headers: Record<string, string>) => new Request('http://x/api', { method, headers });
// The public origin is http://<host>:3000 here (PORT 3000, scheme http).
const local = loadSettings({ NODE_ENV: 'test', PORT: '3000' });
const behindTls = loadSettings({ NODE_ENV: 'test', PORT: '3000', GATEHOUSE_PUBLIC_SCHEME: 'https', GATEHOUSE_PUBLIC_PORT: '443' });

describe('assertSameOrigin', () => {
  it('lets safe methods and same-origin writes through', () => {
    expect(() => assertSameOrigin(req('GET', { host: 'a.test', origin: 'http://evil.test' }), local)).not.toThrow();
    expect(() => assertSameOrigin(req('POST', { host: 'a.test:3000', origin: 'http://a.test:3000' }), local)).not.toThrow();
    expect(() => assertSameOrigin(req('POST', { host: 'A.test:3000', origin: 'http://a.TEST:3000' }), local)).not.toThrow();
    expect(() => assertSameOrigin(req('POST', { host: 'a.test', 'sec-fetch-site': 'same-origin' }), local)).not.toThrow();
  });

  it('compares with the public origin behind a TLS-terminating proxy', () => {
    // The proxy forwards to the server's own port; the browser's origin is the public https one.
    expect(() => assertSameOrigin(req('POST', { host: 'a.test:3000', origin: 'https://a.test' }), behindTls)).not.toThrow();
    expect(() => assertSameOrigin(req('POST', { host: 'a.test', origin: 'https://a.test:443' }), behindTls)).not.toThrow();
    expect(() => assertSameOrigin(req('POST', { host: 'a.test', origin: 'http://a.test' }), behindTls)).toThrow(/Cross-site/);
  });

  it('lets non-browser clients (no Origin, no Sec-Fetch-Site) through when they carry no cookie', () => {
    expect(() => assertSameOrigin(req('DELETE', { host: 'a.test' }), local)).not.toThrow();
    expect(() => assertSameOrigin(req('POST', { host: 'a.test', authorization: 'Bearer abc' }), local)).not.toThrow();
    expect(() => assertSameOrigin(req('POST', { host: 'a.test', cookie: ' ; ' }), local)).not.toThrow();
  });

  it('refuses a cookie-carrying write with neither Origin nor Sec-Fetch-Site (issue 30 item 11)', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const cookie of ['gatehouse_session=abc', '__Host-gatehouse_session=abc', '_interaction=x; other=y']) {
        expect(() => assertSameOrigin(req(method, { host: 'a.test', cookie }), local), `${method} ${cookie}`).toThrow(/Cross-site/);
        expect(() => assertSameOrigin(req(method, { host: 'a.test', cookie, authorization: 'Bearer abc' }), local)).toThrow(/Cross-site/);
      }
    }
    // The same write with a browser's same-origin headers passes; reads never need them.
    const cookie = 'gatehouse_session=abc';
    expect(() => assertSameOrigin(req('POST', { host: 'a.test:3000', cookie, origin: 'http://a.test:3000' }), local)).not.toThrow();
    expect(() => assertSameOrigin(req('POST', { host: 'a.test', cookie, 'sec-fetch-site': 'same-origin' }), local)).not.toThrow();
    expect(() => assertSameOrigin(req('GET', { host: 'a.test', cookie }), local)).not.toThrow();
  });

  it('rejects cross-origin, sibling-subdomain, other-port and other-scheme writes', () => {
    const cases: Record<string, string>[] = [
      { host: 'a.test', origin: 'http://evil.test' },
      { host: 'acme.example.com', origin: 'https://other.example.com' },
      { host: 'a.test:3000', origin: 'http://a.test:8080' },
      { host: 'a.test:3000', origin: 'http://a.test' },
      { host: 'a.test:3000', origin: 'https://a.test:3000' },
      { host: 'a.test:3000', origin: 'https://a.test' },
      { host: 'a.test:3000', origin: 'ftp://a.test:3000' },
      { host: 'a.test', origin: 'null' },
      { host: 'a.test', origin: '' },
      { host: 'a.test', origin: 'not a url' },
      { origin: 'http://a.test:3000' },
      { host: 'a.test', 'sec-fetch-site': 'cross-site' },
      { host: 'a.test', 'sec-fetch-site': 'same-site' },
      { host: 'a.test', 'sec-fetch-site': '' },
    ];
    for (const h of cases) {
      expect(() => assertSameOrigin(req('POST', h), local), JSON.stringify(h)).toThrow(/Cross-site/);
    }
  });
});
