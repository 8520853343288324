import { createHash } from 'node:crypto';
import { settings as envSettings, type Settings } from '../../config/env';

// Pure WebAuthn rules of the realm (spec 2.1, 4.3): the relying-party ID is the realm's
// PrimaryDomain; a ceremony is accepted from an origin of the public scheme and port whose host is
// the primary domain or one of its subdomains (App subdomains share the realm's passkeys).

/** The WebAuthn user handle: a stable opaque value derived from the user id (not the id itself). */
export function userHandleFor(realmId: string, userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(`gatehouse-webauthn-user:${realmId}:${userId}`).digest());
}

/** Whether `origin` (as the browser wrote it into clientDataJSON) may use the RP ID `rpId`. */
export function isAllowedOrigin(origin: string, rpId: string, s: Pick<Settings, 'publicScheme' | 'publicPort'> = envSettings()): boolean {
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return false;
  }
  // A serialised origin has nothing after the port; anything else is not an origin.
  if (u.origin !== origin) return false;
  if (u.protocol !== `${s.publicScheme}:`) return false;
  const defaultPort = s.publicScheme === 'https' ? 443 : 80;
  if (u.port !== (s.publicPort === defaultPort ? '' : String(s.publicPort))) return false;
  const host = u.hostname.toLowerCase();
  const rp = rpId.toLowerCase();
  return host === rp || host.endsWith(`.${rp}`);
}

export type ClientData = { type: string; challenge: string; origin: string };

/** The parts of clientDataJSON needed before verification (to find the ceremony), or null. */
export function readClientData(clientDataJSON: unknown): ClientData | null {
  if (typeof clientDataJSON !== 'string' || clientDataJSON.length > 8192 || !/^[A-Za-z0-9_-]+={0,2}$/.test(clientDataJSON)) return null;
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { type, challenge, origin } = parsed;
    if (typeof type !== 'string' || typeof challenge !== 'string' || typeof origin !== 'string') return null;
    return { type, challenge, origin };
  } catch {
    return null;
  }
}

/** The challenge bytes of a ceremony token (a base64url string), so options carry the token verbatim. */
export function challengeBytes(token: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(token, 'base64url'));
}
