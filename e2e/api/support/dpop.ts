import { createHash, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { api, type ApiResponse } from './harness';
import { issuerOf } from './oauth';

// DPoP (RFC 9449) as a client does it: a key pair, proofs signed with it (jose), and a token from the
// engine's token endpoint bound to that key. Stateless helpers: each test file keeps its own keys.

export type DpopKey = { privateKey: CryptoKey; publicJwk: JWK; jkt: string };

export async function dpopKey(alg: 'ES256' | 'Ed25519' = 'ES256'): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  return { privateKey, publicJwk, jkt: await calculateJwkThumbprint(publicJwk, 'sha256') };
}

export const athOf = (token: string) => createHash('sha256').update(token).digest('base64url');

export type ProofParts = {
  htm: string;
  htu: string;
  /** The access token the proof goes with (its `ath`); none at the token endpoint. */
  token?: string;
  /** Replaces or adds claims (undefined removes one). */
  claims?: JWTPayload;
  /** Replaces or adds protected-header members. */
  header?: Record<string, unknown>;
  alg?: string;
};

/** A DPoP proof (RFC 9449 4.2) signed with `key`, for `htm` and `htu`. */
export async function proof(key: DpopKey, parts: ProofParts): Promise<string> {
  const claims: JWTPayload = {
    jti: randomUUID(),
    htm: parts.htm,
    htu: parts.htu,
    iat: Math.floor(Date.now() / 1000),
    ...(parts.token ? { ath: athOf(parts.token) } : {}),
    ...parts.claims,
  };
  for (const [k, v] of Object.entries(claims)) if (v === undefined) delete claims[k];
  return new SignJWT(claims)
    .setProtectedHeader({ alg: parts.alg ?? (key.publicJwk.kty === 'OKP' ? 'Ed25519' : 'ES256'), typ: 'dpop+jwt', jwk: key.publicJwk, ...parts.header })
    .sign(key.privateKey);
}

/** The URI a proof names for `path` on the realm at `host` (its public origin in the tests). */
export const htuOf = (host: string, path: string) => `${issuerOf(host)}${path}`;

/** A client-credentials token bound to `key`: the token endpoint is sent a proof (RFC 9449 5). */
export async function dpopClientCredentials(host: string, clientId: string, secret: string, scope: string, key: DpopKey): Promise<ApiResponse> {
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64');
  return api(host, 'POST', '/connect/token', {
    rawBody: new URLSearchParams({ grant_type: 'client_credentials', scope }).toString(),
    contentType: 'application/x-www-form-urlencoded',
    headers: { authorization: `Basic ${basic}`, dpop: await proof(key, { htm: 'POST', htu: htuOf(host, '/connect/token') }) },
  });
}
