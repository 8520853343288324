import { describe, expect, it } from 'vitest';
import { assertSameOrigin } from './csrf';

const req = (method: string, headers: Record<string, string>) => new Request('http://x/api', { method, headers });

describe('assertSameOrigin', () => {
  it('lets safe methods and same-origin writes through', () => {
    expect(() => assertSameOrigin(req('GET', { host: 'a.test', origin: 'http://evil.test' }))).not.toThrow();
    expect(() => assertSameOrigin(req('POST', { host: 'a.test:3000', origin: 'http://a.test:3000' }))).not.toThrow();
    expect(() => assertSameOrigin(req('POST', { host: 'a.test', 'sec-fetch-site': 'same-origin' }))).not.toThrow();
  });

  it('lets non-browser clients (no Origin, no Sec-Fetch-Site) through', () => {
    expect(() => assertSameOrigin(req('DELETE', { host: 'a.test' }))).not.toThrow();
  });

  it('rejects cross-origin and sibling-subdomain writes', () => {
    const cases: Record<string, string>[] = [
      { host: 'a.test', origin: 'http://evil.test' },
      { host: 'acme.example.com', origin: 'https://other.example.com' },
      { host: 'a.test', origin: 'null' },
      { host: 'a.test', origin: 'not a url' },
      { host: 'a.test', 'sec-fetch-site': 'cross-site' },
      { host: 'a.test', 'sec-fetch-site': 'same-site' },
    ];
    for (const h of cases) {
      expect(() => assertSameOrigin(req('POST', h)), JSON.stringify(h)).toThrow(/Cross-site/);
    }
  });
});
