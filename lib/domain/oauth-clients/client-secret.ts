import { randomToken, safeEqual, sha256Hex } from '../../crypto/tokens';

// Client secrets are generated 256-bit values, shown once and stored as a SHA-256 digest
// (docs/security.md "Secrets at rest"): a slow hash would cap the token endpoint at the hash rate.
// The OAuth engine compares through `clientSecretMatches` (lib/oidc/internals.ts).

export function newClientSecret(): { secret: string; secretHash: string } {
  const secret = randomToken(32);
  return { secret, secretHash: sha256Hex(secret) };
}

export function clientSecretMatches(secretHash: string, presented: string): boolean {
  return safeEqual(secretHash, sha256Hex(presented));
}
