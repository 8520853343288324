import { tokenSubjectActor, type VerifiedToken } from '../domain/access-tokens/bearer-token';
import { presentedTokenOf, verifyPresentedToken, type Presentation } from '../domain/access-tokens/presented-token';
import { INVITE_SCOPES_FOR, MANAGEMENT_AUDIENCE, MANAGEMENT_SCOPE } from '../domain/oauth-scopes/gatehouse-scopes';
import type { Actor, BearerGrant } from '../realm/context';
import { AppError } from '../errors/app-error';
import type { RealmRecord } from '../realm/realm-record';
import type { Endpoint } from './endpoint';

// Bearer authentication of the routes whose declaration says `bearer` (spec 5.2): the token must be
// live, presented as it must be (`Bearer`, or `DPoP` with a proof when it is bound to a key:
// presented-token.ts), meant for the Management API, and carry the route's scope. Who it acts for (a person, a
// service account or the client itself) then meets the same live permission checks as a cookie.
type BearerMode = NonNullable<Endpoint['bearer']>;

const INVITE_SCOPES: Record<BearerMode, readonly string[]> = { management: [], 'invite-read': INVITE_SCOPES_FOR.read, 'invite-write': INVITE_SCOPES_FOR.write };

/** True when the bearer is admitted by its App-bound invite scope rather than a permission. */
export function isScopeOnlyBearer(bearer: BearerGrant | undefined): boolean {
  return Boolean(bearer && !bearer.scopes.includes(MANAGEMENT_SCOPE));
}

/** The request facts a presented token is checked against (presented-token.ts). */
export function presentationOf(request: Request): Presentation {
  return {
    method: request.method,
    host: request.headers.get('host'),
    pathname: new URL(request.url).pathname,
    authorization: request.headers.get('authorization'),
    dpop: request.headers.get('dpop'),
  };
}

/** The token a route that admits bearer tokens is called with, checked; undefined when none is sent. */
export async function presentedTokenFacts(realm: RealmRecord, presentation: Presentation): Promise<VerifiedToken | undefined> {
  const presented = presentedTokenOf(presentation.authorization);
  return presented ? verifyPresentedToken(realm, presented, presentation) : undefined;
}

export async function authenticateBearer(realm: RealmRecord, verified: VerifiedToken, mode: BearerMode): Promise<{ actor: Actor; bearer: BearerGrant }> {
  if (!verified.audiences.includes(MANAGEMENT_AUDIENCE))
    throw new AppError('Auth.InsufficientScope', { detail: `The token's audience must include ${MANAGEMENT_AUDIENCE}.` });
  const admitted = verified.scopes.includes(MANAGEMENT_SCOPE) || INVITE_SCOPES[mode].some((s) => verified.scopes.includes(s));
  if (!admitted) throw new AppError('Auth.InsufficientScope', { detail: `Requires scope ${[MANAGEMENT_SCOPE, ...INVITE_SCOPES[mode]].join(' or ')}.` });
  const bearer: BearerGrant = { clientId: verified.clientId, appId: verified.client.appId, scopes: verified.scopes, audiences: verified.audiences };
  if (verified.subject) {
    const actor = await tokenSubjectActor(realm, verified);
    if (!actor) throw new AppError('Auth.InvalidToken');
    return { actor, bearer };
  }
  if (verified.client.serviceAccountId) {
    return {
      actor: {
        kind: 'service-account',
        serviceAccountId: verified.client.serviceAccountId,
        name: verified.client.serviceAccountName ?? verified.clientId,
        clientId: verified.clientId,
        scopes: verified.scopes,
      },
      bearer,
    };
  }
  return { actor: { kind: 'client', clientId: verified.clientId }, bearer };
}

const FORWARDED_FOR_HEADER = 'gatehouse-forwarded-for';

/**
 * Trusted forwarders (spec 5.4): a backend acting for browsers calls with a bearer token of a
 * confidential client holding `cap:trusted-forwarder` and names the browser's address in
 * `Gatehouse-Forwarded-For`, which then counts as the rate-limit source. From anyone else the
 * header is ignored, so it cannot be used to dodge the per-source limits. The token is presented as
 * on any route (a bound one with its proof); `checked` is the route's own check of it, when the
 * route admits bearer tokens, so a proof is verified (and its jti taken) once.
 */
export async function trustedForwardedSource(
  realm: RealmRecord,
  presentation: Presentation,
  headers: Headers,
  checked: VerifiedToken | undefined,
): Promise<string | undefined> {
  const forwarded = headers.get(FORWARDED_FOR_HEADER)?.split(',')[0]?.trim();
  if (!forwarded || forwarded.length > 64 || !/^[0-9A-Fa-f:.]+$/.test(forwarded)) return undefined;
  let verified = checked;
  if (!verified) {
    try {
      verified = await presentedTokenFacts(realm, presentation);
    } catch (e) {
      if (e instanceof AppError) return undefined; // a token that does not pass only leaves the header unheeded
      throw e;
    }
  }
  return verified?.client.capabilities.includes('cap:trusted-forwarder') ? forwarded : undefined;
}
