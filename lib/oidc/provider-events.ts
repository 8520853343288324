import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { isMetadataDocumentClientId } from '../domain/client-metadata-documents/client-id';
import { recordTokenReuse } from '../domain/sessions/token-reuse';
import { logError, logWarn } from '../log/logger';
import { domainContext } from '../realm/context';
import type { RealmRecord } from '../realm/realm-record';
import { loggableUrl } from './outbound-fetch';
import { watchStorageOutages } from './storage-outage';
import { replayOf } from './token-reuse';

// The engine reports through events: server errors go to the log (never to the client), and a
// replayed code or refresh token, which revokes the whole token family, goes to the realm's
// security log as `oauth-token.reused` (token-reuse.ts notes which grant it was).
// A refused Client ID Metadata Document (cimd.ts) is logged with its URL and the reason, for the
// developer of the client to find (a failed fetch is logged by outbound-fetch.ts as well).

type EngineError = { name?: string; error?: string; error_description?: string; error_detail?: string };
type ErrorContext = { oidc?: { params?: { client_id?: unknown } } };

function metadataDocumentRefusal(ctx: ErrorContext | undefined, error: EngineError): { clientId: string; reason: string } | null {
  const clientId = ctx?.oidc?.params?.client_id;
  if (!isMetadataDocumentClientId(clientId)) return null;
  if (error?.error !== 'invalid_client' && error?.error !== 'invalid_client_metadata' && error?.error !== 'invalid_redirect_uri') return null;
  return { clientId, reason: [error.error_description, error.error_detail].filter(Boolean).join(': ') || String(error.error) };
}

export function watchProviderEvents(provider: Provider, realm: RealmRecord): void {
  watchStorageOutages(provider, (error) => logError('oauth engine error', error, { realm: realm.slug }));
  provider.on('grant.error', (ctx: KoaContextWithOIDC, error: EngineError) => {
    const replay = replayOf(ctx);
    const clientId = ctx?.oidc?.client?.clientId;
    if (!replay || !clientId || error?.name !== 'InvalidGrant') return;
    logWarn('oauth grant reused: its token family is revoked', { realm: realm.slug, clientId, kind: replay.kind });
    // Whoever presented a spent credential is not known (it may be a thief): the entry names the
    // client and the person whose grant it was, and the caller's address.
    const dctx = domainContext(realm, { kind: 'anonymous' }, { ip: ctx.ip, userAgent: ctx.get('user-agent') || undefined });
    const reason = error.error_detail ?? error.error_description ?? 'grant reused';
    recordTokenReuse(dctx, { clientId, ...replay, reason }).catch((e: unknown) => logError('token reuse not recorded', e, { realm: realm.slug }));
  });
  const onRefusal = (ctx: unknown, error: unknown) => {
    const refusal = metadataDocumentRefusal(ctx as ErrorContext | undefined, error as EngineError);
    if (refusal) logWarn('oauth client metadata document refused', { realm: realm.slug, clientId: loggableUrl(refusal.clientId), reason: refusal.reason });
  };
  // The routes where a metadata document is looked up for the first time.
  provider.on('authorization.error', onRefusal);
  provider.on('pushed_authorization_request.error', onRefusal);
  provider.on('grant.error', onRefusal);
  provider.on('device_authorization.error', onRefusal);
}
