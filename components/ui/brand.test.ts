import { describe, expect, it } from 'vitest';
import { initials } from './brand';

describe('initials', () => {
  it('takes two letters', () => {
    expect(initials('Control plane')).toBe('CP');
    expect(initials('acme')).toBe('AC');
    expect(initials('ada.lovelace@example.test')).toBe('AL');
  });
});
