import { publicOrigin } from '../../config/env';
import { AppError } from '../../errors/app-error';
import { normalizeHost } from '../../realm/host';
import type { RealmRecord } from '../../realm/realm-record';
import { firstSighting } from '../../runtime/first-sighting';
import { verifyAccessToken, type VerifiedToken } from './bearer-token';
import { verifyDpopProof } from './dpop-proof';

// How an access token is presented to Gatehouse's own API (every route that takes one: the
// Management API routes declared `bearer`, /connect/passkey, the trusted-forwarder header), and the
// rule that decides whether it is accepted (RFC 6750, RFC 9449 7.1-7.2):
// - a token bound to a key (`cnf.jkt` in a JWT, the engine's stored `jkt` for a reference token)
//   only as `Authorization: DPoP <token>` with a valid proof of that key (dpop-proof.ts); sent as
//   `Bearer` it is refused, since whoever copied it would otherwise need no key at all;
// - a token bound to nothing only as `Bearer`: RFC 9449 7.2 lets a server refuse it under the DPoP
//   scheme, and Gatehouse does, so a client never believes its token is bound when it is not.

export type PresentedToken = { scheme: 'Bearer' | 'DPoP'; token: string };

/** The request facts the check needs, from a Fetch Request or a node:http message alike. */
export type Presentation = {
  method: string;
  /** The Host header (it resolved to this realm). */
  host: string | null | undefined;
  /** The request's path, without query. */
  pathname: string;
  authorization: string | null | undefined;
  dpop: string | null | undefined;
};

/** The scheme and token of an `Authorization` header value (RFC 6750 2.1, RFC 9449 7.1), if any. */
export function presentedTokenOf(authorization: string | null | undefined): PresentedToken | undefined {
  if (!authorization) return undefined;
  const match = /^(Bearer|DPoP)\s+(\S+)\s*$/i.exec(authorization);
  if (!match) return undefined;
  return { scheme: match[1].toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer', token: match[2] };
}

/**
 * The facts of the token a request presents, once its presentation is right; throws
 * Auth.InvalidToken (not a live token of this realm), Auth.DpopRequired (a bound token sent as
 * Bearer), Auth.TokenNotDpopBound (an unbound token sent as DPoP) or Auth.InvalidDpopProof.
 */
export async function verifyPresentedToken(realm: RealmRecord, presented: PresentedToken, request: Presentation): Promise<VerifiedToken> {
  const verified = await verifyAccessToken(realm, presented.token);
  if (!verified) throw new AppError('Auth.InvalidToken');
  const jkt = verified.jkt;
  if (!jkt) {
    if (presented.scheme === 'DPoP') throw new AppError('Auth.TokenNotDpopBound');
    return verified;
  }
  if (presented.scheme !== 'DPoP') throw new AppError('Auth.DpopRequired');
  const host = normalizeHost(request.host);
  if (!host) throw new AppError('Auth.InvalidDpopProof', { detail: 'The request names no host the proof could be for.' });
  await verifyDpopProof(request.dpop, {
    method: request.method,
    uri: publicOrigin(host) + request.pathname,
    accessToken: presented.token,
    jkt,
    // Per realm and key: a jti is the client's random value, unique for the key that signs it.
    firstUse: (jti, ttlMs) => firstSighting('dpop-jti', `${realm.id}\0${jkt}\0${jti}`, ttlMs),
  });
  return verified;
}
