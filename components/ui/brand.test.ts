import { describe, expect, it } from 'vitest';
import { brandStyle, initials } from './brand';

describe('brandStyle', () => {
  it('accepts only hex colours and picks a readable text colour', () => {
    expect(brandStyle('#1F4F8F')).toBe(':root{--brand:#1f4f8f;--brand-ink:#ffffff}');
    expect(brandStyle('#ffd400')).toContain('--brand-ink:#111827');
    expect(brandStyle('red;}body{display:none')).toBe(':root{--brand:#1f4f8f;--brand-ink:#ffffff}');
    expect(brandStyle(undefined)).toContain('--brand:#1f4f8f');
  });
});

describe('initials', () => {
  it('takes two letters', () => {
    expect(initials('Control plane')).toBe('CP');
    expect(initials('acme')).toBe('AC');
    expect(initials('ada.lovelace@example.test')).toBe('AL');
  });
});
