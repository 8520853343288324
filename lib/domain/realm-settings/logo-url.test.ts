import { describe, expect, it } from 'vitest';
import { safeLogoUrl } from './logo-url';

describe('safeLogoUrl', () => {
  it('keeps absolute http(s) URLs', () => {
    expect(safeLogoUrl('https://cdn.example.com/logo.png')).toBe('https://cdn.example.com/logo.png');
    expect(safeLogoUrl('http://example.test/a b.svg')).toBe('http://example.test/a%20b.svg');
  });

  it.each([null, undefined, '', 'javascript:alert(1)', 'data:image/svg+xml,<svg onload=alert(1)>', '/relative.png', 'ftp://x.test/l.png', 'not a url'])(
    'drops %s',
    (v) => {
      expect(safeLogoUrl(v)).toBeNull();
    },
  );
});
