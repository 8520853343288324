import { sha256Hex } from '../crypto/tokens';

// How the OAuth engine's ids and looked-up values are stored in OidcPayload (issue 8 item 5): their
// SHA-256, so a database dump yields no usable token. The engine's adapter writes with it, and
// Gatehouse's own readers of that table (bearer check, session bridge, consent page) look up with
// it; it lives here, under all of them, so none imports the engine layer for a digest.
export function oidcStorageKey(value: string): string {
  return sha256Hex(value);
}
