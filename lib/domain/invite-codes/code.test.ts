import { describe, expect, it } from 'vitest';
import { canonicalInviteCode, generateInviteCode, INVITE_CODE_CHARS, inviteCodeHash } from './code';

describe('invite codes', () => {
  it('are 7 groups of 4 Crockford base32 characters (140 bits), all different', () => {
    const codes = Array.from({ length: 200 }, generateInviteCode);
    for (const c of codes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){6}$/);
    expect(new Set(codes).size).toBe(codes.length);
    expect(INVITE_CODE_CHARS * 5).toBeGreaterThanOrEqual(128);
  });

  it('read back the same whatever the case, spacing, dashes, and O/I/L for 0/1', () => {
    const code = generateInviteCode();
    const canonical = canonicalInviteCode(code)!;
    expect(canonical).toHaveLength(INVITE_CODE_CHARS);
    expect(canonicalInviteCode(code.toLowerCase())).toBe(canonical);
    expect(canonicalInviteCode(` ${code.replace(/-/g, ' ')} `)).toBe(canonical);
    expect(canonicalInviteCode(code.replace(/-/g, ''))).toBe(canonical);
    const withZeroAndOne = '0000-1111-2222-3333-4444-5555-6666';
    expect(canonicalInviteCode('oOo0-IiLl-2222-3333-4444-5555-6666')).toBe(canonicalInviteCode(withZeroAndOne));
  });

  it('refuse anything of another length or alphabet', () => {
    expect(canonicalInviteCode('')).toBeNull();
    expect(canonicalInviteCode('ABCD-EFGH')).toBeNull();
    expect(canonicalInviteCode('UUUU-UUUU-UUUU-UUUU-UUUU-UUUU-UUUU')).toBeNull();
    expect(canonicalInviteCode('x'.repeat(500))).toBeNull();
  });

  it('hash to a hex digest that does not contain the code', () => {
    const canonical = canonicalInviteCode(generateInviteCode())!;
    const h = inviteCodeHash(canonical);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toContain(canonical.toLowerCase());
    expect(inviteCodeHash(canonical)).toBe(h);
  });
});
