import { describe, expect, it } from 'vitest';
import { baseSecurityHeaders, engineCsp, fallbackCsp, hstsHeader, isHtml, pageCsp } from '../web/security-headers';

const directives = (csp: string) =>
  new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );

describe('security headers', () => {
  it('every policy denies framing, plugins and base rewriting', () => {
    for (const csp of [
      pageCsp({ nonce: 'n', dev: false, publicScheme: 'https', pathname: '/login' }),
      engineCsp({ styleHashes: ['sha256-x'], publicScheme: 'https' }),
      fallbackCsp('https'),
    ]) {
      const d = directives(csp);
      expect(d.get('frame-ancestors')).toEqual(["'none'"]);
      expect(d.get('object-src')).toEqual(["'none'"]);
      expect(d.get('base-uri')).toEqual(["'none'"]);
      expect(d.get('img-src')).toContain('https:');
      expect(d.get('img-src')).not.toContain('http:');
    }
  });

  it('pages run only nonce scripts; production styles by nonce too', () => {
    const d = directives(pageCsp({ nonce: 'abc', dev: false, publicScheme: 'http', pathname: '/login' }));
    expect(d.get('script-src')).toEqual(["'self'", "'nonce-abc'", "'strict-dynamic'"]);
    expect(d.get('style-src')).toEqual(["'self'", "'nonce-abc'"]);
    expect(d.get('img-src')).toContain('http:');
  });

  it('the consent page may post to the engine, whose redirects end at the client (no form-action)', () => {
    expect(directives(pageCsp({ nonce: 'n', dev: false, publicScheme: 'https', pathname: '/login' })).get('form-action')).toEqual(["'self'"]);
    expect(directives(pageCsp({ nonce: 'n', dev: false, publicScheme: 'https', pathname: '/consent' })).has('form-action')).toBe(false);
  });

  it('engine pages allow their style by hash and leave form-action to the engine (form_post)', () => {
    const d = directives(engineCsp({ styleHashes: ['sha256-abc'], publicScheme: 'https' }));
    expect(d.get('style-src')).toEqual(["'sha256-abc'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.has('form-action')).toBe(false);
  });

  it('HSTS only when the public scheme is https', () => {
    expect(hstsHeader('http')).toBeNull();
    expect(hstsHeader('https')).toMatch(/^max-age=\d{7,}$/);
    expect(baseSecurityHeaders('http')).not.toHaveProperty('strict-transport-security');
    expect(baseSecurityHeaders('https')['strict-transport-security']).toBe(hstsHeader('https'));
    expect(baseSecurityHeaders('https')['x-frame-options']).toBe('DENY');
  });

  it('recognises HTML content types', () => {
    expect(isHtml('text/html; charset=utf-8')).toBe(true);
    expect(isHtml(['text/html'])).toBe(true);
    expect(isHtml('application/json')).toBe(false);
    expect(isHtml(undefined)).toBe(false);
  });
});
