import { bearerTokenOf, tokenSubjectActor, verifyAccessToken } from '../domain/access-tokens/bearer-token';
import { INVITE_SCOPES_FOR, MANAGEMENT_AUDIENCE, MANAGEMENT_SCOPE } from '../domain/oauth-scopes/gatehouse-scopes';
import type { Actor, BearerGrant } from '../realm/context';
import { AppError } from '../errors/app-error';
import type { RealmRecord } from '../realm/realm-record';
import type { Endpoint } from './endpoint';

// Bearer authentication of the routes whose declaration says `bearer` (spec 5.2): the token must be
// live, meant for the Management API, and carry the route's scope. Who it acts for (a person, a
// service account or the client itself) then meets the same live permission checks as a cookie.
type BearerMode = NonNullable<Endpoint['bearer']>;

const INVITE_SCOPES: Record<BearerMode, readonly string[]> = { management: [], 'invite-read': INVITE_SCOPES_FOR.read, 'invite-write': INVITE_SCOPES_FOR.write };

/** True when the bearer is admitted by its App-bound invite scope rather than a permission. */
export function isScopeOnlyBearer(bearer: BearerGrant | undefined): boolean {
  return Boolean(bearer && !bearer.scopes.includes(MANAGEMENT_SCOPE));
}

export async function authenticateBearer(realm: RealmRecord, token: string, mode: BearerMode): Promise<{ actor: Actor; bearer: BearerGrant }> {
  const verified = await verifyAccessToken(realm, token);
  if (!verified) throw new AppError('Auth.InvalidToken');
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
 * header is ignored, so it cannot be used to dodge the per-source limits.
 */
export async function trustedForwardedSource(realm: RealmRecord, headers: Headers): Promise<string | undefined> {
  const forwarded = headers.get(FORWARDED_FOR_HEADER)?.split(',')[0]?.trim();
  const token = bearerTokenOf(headers.get('authorization'));
  if (!forwarded || !token || forwarded.length > 64 || !/^[0-9A-Fa-f:.]+$/.test(forwarded)) return undefined;
  const verified = await verifyAccessToken(realm, token);
  return verified?.client.capabilities.includes('cap:trusted-forwarder') ? forwarded : undefined;
}
