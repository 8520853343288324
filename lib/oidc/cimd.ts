import { errors, type Configuration } from 'oidc-provider';
import { AppFeatures } from '../domain/apps/app-features';
import { appIdForHost } from '../domain/apps/request-app';
import { flag } from '../domain/flags/registry';
import type { RealmRecord } from '../realm/realm-record';
import { engineRequest } from './engine-request';
import { failedRecently } from './fetch-failures';

// OAuth Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; docs/oauth.md
// "Client ID Metadata Documents"). oidc-provider implements the draft (its `clientIdMetadataDocument`
// feature, experimental, draft-02): when no stored client has the id and the id is a valid https
// client identifier URL (path, no fragment, no user info, no dot segments), it fetches the document
// (2.5 s timeout, redirects refused, at most METADATA_DOCUMENT_MAX_BYTES, special-use addresses
// refused unless GATEHOUSE_OUTBOUND_ALLOW lists them: outbound-fetch.ts), requires `client_id` to
// equal the URL exactly, refuses secret-based authentication and `client_secret`, and caches it
// within `cacheDuration` of its Cache-Control / Expires. What the document may claim is narrowed in
// client-trust.ts.
//
// A document whose fetch failed is not fetched again for a short while, by any instance
// (fetch-failures.ts).
//
// The realm's engine always has the feature on; whether a request may use it is the `Cimd` setting
// of the App its Host routes to (the realm's own setting on the realm's domains), asked before every
// fetch and every use of a cached document, so turning it off takes effect at once.

/**
 * The draft version of oidc-provider's implementation this configuration was written for. An
 * upgrade that implements another version refuses to build the provider until this is reviewed and
 * changed (the engine's rule for experimental features), which every OAuth test would show.
 */
const IMPLEMENTED_DRAFT = 'draft-02';
export const METADATA_DOCUMENT_MAX_BYTES = 5 * 1024;
/** Seconds a fetched document is used: its Cache-Control max-age (or Expires), within these bounds. */
const CACHE_SECONDS = { min: 60, max: 3600 };

async function enabledForRequest(realm: RealmRecord): Promise<boolean> {
  const request = engineRequest();
  // Outside a dispatched request (never expected) nothing is fetched.
  if (!request || request.realm.id !== realm.id) return false;
  return flag({ realm }, AppFeatures.Cimd, { AppId: appIdForHost(realm, request.host) });
}

type Features = NonNullable<Configuration['features']>;

export function metadataDocumentFeature(realm: RealmRecord): NonNullable<Features['clientIdMetadataDocument']> {
  return {
    enabled: true,
    ack: IMPLEMENTED_DRAFT,
    allowFetch: async (_ctx, clientId) => {
      if (!(await enabledForRequest(realm))) return false;
      if (await failedRecently(clientId))
        throw new errors.InvalidClient('client_id metadata document fetch failed', 'it failed moments ago; not fetched again yet');
      return true;
    },
    allowClient: () => enabledForRequest(realm),
    cacheDuration: CACHE_SECONDS,
  };
}
