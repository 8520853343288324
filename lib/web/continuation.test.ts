import { describe, expect, it } from 'vitest';
import { safeContinuation } from '../web/continuation';

describe('safeContinuation', () => {
  it.each(['/', '/console', '/connect/authorize?client_id=a&redirect_uri=https%3A%2F%2Fapp.test%2Fcb', '/a/b#frag', '/%2F%2Fevil.test'])('keeps %s', (v) => {
    expect(safeContinuation(v)).toBe(v);
  });

  it('normalises dot segments but stays on the path', () => {
    expect(safeContinuation('/a/../b')).toBe('/b');
  });

  it.each([
    '//evil.test',
    '/\\evil.test',
    '/\t/evil.test',
    '/\n/evil.test',
    '/ /x',
    'https://evil.test/',
    'http:/evil.test',
    'javascript:alert(1)',
    'evil.test',
    '',
    '\\\\evil.test',
    '/a\\b',
    `/${'a'.repeat(2048)}`,
  ])('refuses %j', (v) => {
    expect(safeContinuation(v)).toBeUndefined();
  });

  it.each([undefined, null, 5, ['/a'], { a: 1 }])('refuses non-strings (%j)', (v) => {
    expect(safeContinuation(v)).toBeUndefined();
  });
});

describe('safeContinuation after normalisation', () => {
  it('refuses dot segments that collapse into a scheme-relative URL', async () => {
    const { safeContinuation } = await import('../web/continuation');
    for (const v of ['/.//evil.test', '/a/..//evil.test', '/%2e%2e//evil.test', '/././/evil.test/x?y']) {
      expect(safeContinuation(v), v).toBeUndefined();
    }
    expect(safeContinuation('/a/../console?tab=1')).toBe('/console?tab=1');
  });
});
