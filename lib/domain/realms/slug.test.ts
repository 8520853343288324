import { describe, expect, it } from 'vitest';
import { slugProblem } from './slug';

describe('slugProblem', () => {
  it('accepts valid slugs of 3 to 63 characters', () => {
    for (const ok of ['abc', 'acme', 'acme-corp', 'a1b', 'a'.repeat(63)]) expect(slugProblem(ok)).toBeNull();
  });
  it('refuses malformed slugs', () => {
    for (const bad of ['ab', 'a'.repeat(64), '1abc', 'Acme', 'acme-', '-acme', 'ac_me', 'ac me', 'a--b', '']) expect(slugProblem(bad)).toBe('invalid');
  });
  it('refuses reserved words', () => {
    for (const r of ['system', 'health', 'swagger', 'api', 'connect', 'import', 'manifest-schema']) expect(slugProblem(r)).toBe('reserved');
  });
});
