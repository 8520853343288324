import { oidcStorageKey } from '../../db/oidc-payload-key';
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import { publicOrigin } from '../../config/env';
import { parseStringList } from '../../db/json-list';
import { realmDb, type Actor } from '../../realm/context';
import { findLiveClientFacts } from '../oauth-clients/live-client';
import { publicSigningKeys } from '../signing-keys/signing-keys';
import { subscribe } from '../../events/bus';
import type { RealmRecord } from '../../realm/realm-record';
import { jwtStillLive } from '../../auth/jwt-access-tokens';
import { cachedVerifiedJwt, rememberVerifiedJwt } from './verified-jwt-cache';
import { cachedPromise } from '../../runtime/cached-promise';
import { shared } from '../../runtime/shared';
import { inEventAreas } from '../../events/catalog';

// Verifies an OAuth access token presented to Gatehouse's own API (spec 5.2). JWTs are checked
// against the realm's published keys, issuer and expiry; reference tokens are looked up in the
// engine's storage. Either way the client is then read live, so a deleted or deactivated client, an
// expired credential or a deactivated service account stops working at once, even for a JWT; and a
// JWT revoked at /connect/revocation or whose grant ended is refused too (jwt-access-tokens.ts).

export type VerifiedToken = {
  clientId: string;
  /** The person the token is for; absent for client credentials. */
  subject?: string;
  scopes: string[];
  audiences: string[];
  client: { appId: string | null; serviceAccountId: string | null; serviceAccountName: string | null; capabilities: string[] };
  /** A JWT's verified claims (absent for reference tokens, which the engine itself reports on). */
  claims?: Readonly<JWTPayload>;
  /** The thumbprint of the key the token is bound to (RFC 9449 6: `cnf.jkt`), when it is DPoP-bound. */
  jkt?: string;
};

type KeySet = ReturnType<typeof createLocalJWKSet>;

function keyCache(): LRUCache<string, Promise<KeySet>> {
  return shared('auth.bearer-keys', () => {
    const cache = new LRUCache<string, Promise<KeySet>>({ max: 2_000, ttl: 5 * 60_000 });
    subscribe(async (event) => {
      if (inEventAreas(event.type, ['signing-key', 'realm'])) cache.delete(event.realmId);
    });
    return cache;
  });
}

async function keySet(realm: RealmRecord, reload = false): Promise<KeySet> {
  const cache = keyCache();
  if (reload) cache.delete(realm.id);
  return cachedPromise(cache, realm.id, async () => createLocalJWKSet({ keys: await publicSigningKeys(await realmDb(realm)) }));
}

/** A JWT access token's claims when its signature, issuer and expiry verify (liveness aside). */
export async function verifyJwt(realm: RealmRecord, token: string): Promise<Readonly<JWTPayload> | null> {
  const issuer = publicOrigin(realm.primaryDomain);
  const options = { issuer, algorithms: ['ES256', 'RS256'] };
  const keys = await keySet(realm);
  const cached = cachedVerifiedJwt({ realmId: realm.id, issuer, keys }, token);
  if (cached) return cached;
  try {
    return rememberVerifiedJwt({ realmId: realm.id, issuer, keys }, token, (await jwtVerify(token, keys, options)).payload);
  } catch (e) {
    // A key rotated since the cache was filled: read the keys once more.
    if (e instanceof joseErrors.JWKSNoMatchingKey) {
      try {
        const reloaded = await keySet(realm, true);
        return rememberVerifiedJwt({ realmId: realm.id, issuer, keys: reloaded }, token, (await jwtVerify(token, reloaded, options)).payload);
      } catch {
        return null;
      }
    }
    return null;
  }
}

type StoredToken = { clientId?: string; accountId?: string; scope?: string; aud?: string | string[]; exp?: number; resource?: string; jkt?: string };

async function lookupReference(realm: RealmRecord, token: string): Promise<StoredToken | null> {
  if (!/^[A-Za-z0-9_-]{20,128}$/.test(token)) return null;
  const db = await realmDb(realm);
  const row = await db.oidcPayload.findFirst({
    where: { id: oidcStorageKey(token), model: { in: ['AccessToken', 'ClientCredentials'] } },
    select: { payload: true, expiresAt: true },
  });
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return null;
  const payload = JSON.parse(row.payload) as StoredToken;
  if (typeof payload.exp === 'number' && payload.exp * 1000 <= Date.now()) return null;
  return payload;
}

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);

async function liveClient(realm: RealmRecord, clientId: string): Promise<VerifiedToken['client'] | null> {
  const live = await findLiveClientFacts(await realmDb(realm), clientId);
  if (!live || (live.secretExpiresAt && live.secretExpiresAt.getTime() <= Date.now())) return null;
  return {
    appId: live.appId,
    serviceAccountId: live.serviceAccountId,
    serviceAccountName: live.serviceAccountName,
    capabilities: parseStringList(live.capabilities),
  };
}

/** The token's facts, or null when it is not a live token of this realm. */
export async function verifyAccessToken(realm: RealmRecord, token: string): Promise<VerifiedToken | null> {
  let clientId: string | undefined;
  let subject: string | undefined;
  let scope: string;
  let audiences: string[];
  let claims: Readonly<JWTPayload> | undefined;
  let jkt: unknown;
  if (token.split('.').length === 3) {
    const payload = await verifyJwt(realm, token);
    if (!payload || !(await jwtStillLive(await realmDb(realm), payload))) return null;
    claims = payload;
    clientId = typeof payload.client_id === 'string' ? payload.client_id : undefined;
    subject = payload.sub && payload.sub !== clientId ? payload.sub : undefined;
    scope = typeof payload.scope === 'string' ? payload.scope : '';
    audiences = asList(payload.aud);
    jkt = (payload.cnf as { jkt?: unknown } | undefined)?.jkt;
  } else {
    const stored = await lookupReference(realm, token);
    if (!stored) return null;
    clientId = stored.clientId;
    subject = stored.accountId;
    scope = stored.scope ?? '';
    audiences = asList(stored.aud ?? stored.resource);
    jkt = stored.jkt;
  }
  if (!clientId) return null;
  const client = await liveClient(realm, clientId);
  if (!client) return null;
  // A binding of any other shape is no key this check could verify: the token is refused, never taken as unbound.
  if (jkt !== undefined && (typeof jkt !== 'string' || !jkt)) return null;
  return {
    clientId,
    subject,
    scopes: scope.split(' ').filter(Boolean),
    audiences,
    client,
    ...(claims ? { claims } : {}),
    ...(typeof jkt === 'string' ? { jkt } : {}),
  };
}

/** The person a verified token was issued for, as an actor; null when they are no longer live. */
export async function tokenSubjectActor(realm: RealmRecord, verified: VerifiedToken): Promise<Extract<Actor, { kind: 'user' }> | null> {
  if (!verified.subject) return null;
  const user = await (
    await realmDb(realm)
  ).user.findUnique({ where: { id: verified.subject }, select: { id: true, userName: true, isActive: true, deletedAt: true } });
  if (!user || !user.isActive || user.deletedAt) return null;
  return { kind: 'user', userId: user.id, userName: user.userName, sessionId: null, scopes: verified.scopes };
}
