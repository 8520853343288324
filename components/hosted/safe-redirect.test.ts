import { describe, expect, it } from 'vitest';
import { safeRedirect } from './safe-redirect';

describe('safeRedirect', () => {
  it('keeps same-origin relative paths with query and hash', () => {
    expect(safeRedirect('/console')).toBe('/console');
    expect(safeRedirect('/console/users?page=2#top')).toBe('/console/users?page=2#top');
    expect(safeRedirect('/connect/authorize?client_id=a&redirect_uri=https%3A%2F%2Fapp')).toBe('/connect/authorize?client_id=a&redirect_uri=https%3A%2F%2Fapp');
  });

  it.each([
    ['//evil.example', 'protocol-relative'],
    ['/\\evil.example', 'backslash'],
    ['/\t/evil.example', 'tab'],
    ['/\n/evil.example', 'newline'],
    ['https://evil.example/', 'absolute'],
    ['javascript:alert(1)', 'scheme'],
    ['console', 'not rooted'],
    ['', 'empty'],
    ['/login?redirect=/console', 'loop'],
  ])('rejects %j (%s)', (value) => {
    expect(safeRedirect(value)).toBe('/console');
  });

  it('uses the first of repeated parameters and the given fallback', () => {
    expect(safeRedirect(['/account', '//evil'])).toBe('/account');
    expect(safeRedirect(undefined, '/account')).toBe('/account');
  });
});

describe('safeRedirect after normalisation', () => {
  it('falls back when dot segments collapse into a scheme-relative URL', () => {
    for (const v of ['/.//evil.test', '/a/..//evil.test', '/%2e%2e//evil.test']) expect(safeRedirect(v)).toBe('/console');
  });
});
