import { describe, expect, it } from 'vitest';
import { brandStyle } from './brand-style';

describe('brandStyle', () => {
  it('accepts only hex colours and picks a readable text colour', () => {
    expect(brandStyle('#1F4F8F')).toBe(':root{--brand:#1f4f8f;--brand-ink:#ffffff}');
    expect(brandStyle('#ffd400')).toContain('--brand-ink:#111827');
    expect(brandStyle('red;}body{display:none')).toBe(':root{--brand:#1f4f8f;--brand-ink:#ffffff}');
    expect(brandStyle(undefined)).toContain('--brand:#1f4f8f');
  });
});
