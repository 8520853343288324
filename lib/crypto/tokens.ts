import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

// Secrets Gatehouse generates: 256 random bits, base64url. They are stored only as SHA-256
// digests; a slow hash adds nothing against a 256-bit random value (docs/architecture.md).

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  // The one-shot digest: a third of createHash's cost, and it runs on every token lookup.
  return hash('sha256', value, 'hex');
}

/** Constant-time comparison of two strings (false when lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ab.length !== bb.length) return false;
  return timingSafeEqual(ab, bb);
}

export function newId(): string {
  return randomUUID();
}
