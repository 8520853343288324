import { hash } from 'node:crypto';
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK } from 'jose';
import { DPOP_SIGNING_ALGS } from '../../crypto/dpop-algorithms';
import { safeEqual } from '../../crypto/tokens';
import { AppError } from '../../errors/app-error';

// The check a resource server makes of a DPoP proof (RFC 9449 4.3 and 7.1) before it accepts a
// DPoP-bound access token: Gatehouse's own API does it for every route that takes an access token
// (presented-token.ts). Everything the proof says is compared with this request: the method, the URI
// without query and fragment, the hash of the access token presented with it, and the key the token
// is bound to (`cnf.jkt`, RFC 7638 thumbprint). A proof is good for PROOF_WINDOW_SECONDS either side
// of its `iat`, and once: `firstUse` remembers its `jti` for as long as it could still pass.

/** How far a proof's `iat` may be from this server's clock, in either direction. */
export const PROOF_WINDOW_SECONDS = 60;

// A proof is a small compact JWS: anything larger or of another shape is refused before parsing.
const MAX_PROOF_LENGTH = 8 * 1024;
const MAX_JTI_LENGTH = 256;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
// Members only a private (or symmetric) key has (RFC 7518 6.2.2, 6.3.2, 6.4; RFC 8037 2).
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

export type ProofExpectation = {
  /** The request's method, as received. */
  method: string;
  /** The request's URI as Gatehouse publishes it: public origin and path (no query, no fragment). */
  uri: string;
  /** The access token presented with the proof. */
  accessToken: string;
  /** The thumbprint the token is bound to (`cnf.jkt`). */
  jkt: string;
  /** Claims the proof's `jti` for its window; false when it was seen before. */
  firstUse: (jti: string, ttlMs: number) => Promise<boolean>;
  /** The clock, in milliseconds (tests). */
  now?: number;
};

const refuse = (detail: string): never => {
  throw new AppError('Auth.InvalidDpopProof', { detail });
};

/** The URI a proof's `htu` names, normalised as RFC 9449 4.3 item 9 asks (RFC 3986 6.2.2, 6.2.3), or null. */
function normalisedUri(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 4096) return null;
  const url = URL.parse(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  url.search = '';
  url.hash = '';
  return url.href;
}

function publicJwkOf(header: { jwk?: unknown }): JWK {
  const jwk = header.jwk;
  if (!jwk || typeof jwk !== 'object' || Array.isArray(jwk)) return refuse('The DPoP proof must carry its public key in the jwk header.');
  if (PRIVATE_MEMBERS.some((m) => Object.hasOwn(jwk, m))) return refuse('The DPoP proof’s jwk header must be a public key.');
  return jwk; // an object: every member of a JWK is optional, and jose checks the key itself
}

/** Verifies a DPoP proof for this request and token, or throws Auth.InvalidDpopProof. */
export async function verifyDpopProof(proof: string | undefined | null, expected: ProofExpectation): Promise<void> {
  // Two DPoP header fields arrive joined by a comma, which no compact JWS contains (RFC 9449 4.3 item 1).
  if (!proof) return refuse('A DPoP-bound access token must come with a DPoP proof header.');
  if (proof.length > MAX_PROOF_LENGTH || !COMPACT_JWS.test(proof)) return refuse('The DPoP header must hold exactly one proof, a compact JWS.');

  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    return refuse('The DPoP proof’s header is not valid.');
  }
  const jwk = publicJwkOf(header);
  let payload: Record<string, unknown>;
  try {
    // EmbeddedJWK verifies the signature with the header's own key; `algorithms` admits only the
    // asymmetric algorithms discovery advertises, `typ` must be dpop+jwt (RFC 9449 4.2).
    ({ payload } = await jwtVerify(proof, EmbeddedJWK, { algorithms: [...DPOP_SIGNING_ALGS], typ: 'dpop+jwt' }));
  } catch {
    return refuse('The DPoP proof’s type, algorithm, key or signature is not valid.');
  }

  const nowMs = expected.now ?? Date.now();
  const { jti, htm, htu, iat, ath } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH) return refuse('The DPoP proof must carry a jti.');
  if (htm !== expected.method) return refuse('The DPoP proof’s htm does not match the request method.');
  const uri = normalisedUri(htu);
  if (uri === null || uri !== normalisedUri(expected.uri)) return refuse('The DPoP proof’s htu does not match the request URI.');
  if (typeof iat !== 'number' || !Number.isFinite(iat) || Math.abs(nowMs / 1000 - iat) > PROOF_WINDOW_SECONDS)
    return refuse(`The DPoP proof’s iat must be within ${PROOF_WINDOW_SECONDS} seconds of the server's clock.`);
  if (typeof ath !== 'string' || !safeEqual(ath, hash('sha256', expected.accessToken, 'base64url')))
    return refuse('The DPoP proof’s ath does not match the access token.');
  let thumbprint: string;
  try {
    thumbprint = await calculateJwkThumbprint(jwk, 'sha256');
  } catch {
    return refuse('The DPoP proof’s jwk header is not a valid key.');
  }
  if (!safeEqual(thumbprint, expected.jkt)) return refuse('The DPoP proof is not signed with the key the access token is bound to.');

  // Last, so only a proof that passed every other check takes its jti: it is remembered until its
  // iat leaves the window, after which the iat check refuses it anyway.
  const ttlMs = Math.max(1_000, Math.ceil((iat + PROOF_WINDOW_SECONDS) * 1000 - nowMs));
  if (!(await expected.firstUse(jti, ttlMs))) refuse('The DPoP proof was used before: make a new proof for every request.');
}
