import { errors } from 'oidc-provider';
import { appIdForHost } from '../domain/apps/request-app';
import { changeRegisteredClient, deleteRegisteredClient, registerClient, type Registration } from '../domain/oauth-clients/registered-client';
import { isAppError, type AppError } from '../errors/app-error';
import { domainContext, type DomainContext } from '../realm/context';
import type { RealmRecord } from '../realm/realm-record';
import { engineRequest } from './engine-request';

// The engine's writes of a dynamically registered client (RFC 7591/7592, adapter.ts) as the
// registrant's domain operations (lib/domain/oauth-clients/registered-client.ts): the admin API's
// checks in the committing transaction, then its events (security log, hub, caches on every
// instance). A refusal there is answered as the engine answers registrations (RFC 7591 §3.2.2), never
// as a server error.

/** The registrant of `clientId`, with the address and agent of the engine request being served. */
function registrantContext(realm: RealmRecord, clientId: string): DomainContext {
  const request = engineRequest();
  return domainContext(
    realm,
    { kind: 'registrant', clientId },
    { ip: request?.ip, userAgent: request?.userAgent, appId: request ? appIdForHost(realm, request.host) : undefined },
  );
}

/** The admin API's field names in the registration's own terms (RFC 7591 §2). */
const METADATA_NAMES: Readonly<Record<string, string>> = {
  RedirectUris: 'redirect_uris',
  PostLogoutRedirectUris: 'post_logout_redirect_uris',
  GrantTypes: 'grant_types',
  Scopes: 'scope',
  ClientType: 'token_endpoint_auth_method',
};

function asEngineError(e: AppError): Error {
  if (e.code === 'Validation.Failed' && e.errors) {
    // Redirect URIs first: the engine answers invalid_redirect_uri for a description that starts with them.
    const redirectFirst = (field: string) => Number(field !== 'RedirectUris');
    const fields = Object.entries(e.errors).sort(([a], [b]) => redirectFirst(a) - redirectFirst(b));
    return new errors.InvalidClientMetadata(fields.map(([field, messages]) => `${METADATA_NAMES[field] ?? field}: ${messages.join(' ')}`).join('; '));
  }
  if (e.code === 'Validation.Failed' || e.code === 'OAuthClient.GatehouseScopeForbidden') return new errors.InvalidClientMetadata(e.message);
  // MaxOAuthClients reached meanwhile (409), the client gone meanwhile (404), not one a registrant manages (403).
  return new errors.InvalidRequest(e.message, e.status);
}

async function answeredAsEngine(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (e) {
    throw isAppError(e) ? asEngineError(e) : e;
  }
}

/** RFC 7591 registration (`exists` false) or RFC 7592 update of a dynamically registered client. */
export function storeRegistration(realm: RealmRecord, registration: Registration, exists: boolean): Promise<void> {
  const ctx = registrantContext(realm, registration.clientId);
  return answeredAsEngine(() => (exists ? changeRegisteredClient(ctx, registration) : registerClient(ctx, registration)));
}

/** RFC 7592 delete: the client and everything the engine stored for it. */
export function removeRegistration(realm: RealmRecord, clientId: string): Promise<void> {
  return answeredAsEngine(() => deleteRegisteredClient(registrantContext(realm, clientId), clientId));
}
