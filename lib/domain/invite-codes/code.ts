import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../crypto/tokens';

// Invite codes (spec 2.5, 4.7 "Invite codes"): 28 characters of Crockford base32 (140 random bits)
// in groups of four, e.g. `7KQ2-M9XD-…`. People type them, so the alphabet has no I, L, O or U, and
// input is forgiving: case, spaces and dashes are ignored and O/I/L read as 0/1. Only the SHA-256
// of the canonical form is stored; the plaintext is shown once, when the code is minted.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const INVITE_CODE_CHARS = 28;
const CANONICAL = new RegExp(`^[${ALPHABET}]{${INVITE_CODE_CHARS}}$`);

export function generateInviteCode(): string {
  // 256 is a multiple of 32, so the low five bits of a random byte are uniform.
  const chars = [...randomBytes(INVITE_CODE_CHARS)].map((b) => ALPHABET[b & 31]);
  return chars.join('').match(/.{4}/g)!.join('-');
}

/** The canonical form of what a person typed, or null when it cannot be a code. */
export function canonicalInviteCode(input: string): string | null {
  if (input.length > 100) return null;
  const s = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return CANONICAL.test(s) ? s : null;
}

/** The stored digest of a canonical code. */
export function inviteCodeHash(canonical: string): string {
  return sha256Hex(`invite-code:${canonical}`);
}
