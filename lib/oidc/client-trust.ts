import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { isMetadataDocumentClientId } from '../domain/client-metadata-documents/client-id';
import { ADMIN_ONLY_SCOPES } from '../domain/oauth-scopes/gatehouse-scopes';
import type { RealmRecord } from '../realm/realm-record';
import { GATEHOUSE_CLIENT_PROPERTIES, NO_SCOPE } from './client-metadata';
import { engineRequestAppId } from './engine-request';
import { checkUnvettedMetadata, REGISTRATION_ROUTES } from './registration-policy';

// Gatehouse's extra client metadata (consent type, capabilities, service account, App) is trusted:
// only the admin API sets it. Metadata nobody vetted, from dynamic registration (RFC 7591/7592) or
// from a client's own metadata document (cimd.ts), arrives through the same engine validator, so
// whatever such metadata says about those properties is replaced here: the person always consents
// (Explicit), no capability, no service account, and the App is the one the request's Host routes
// to (a client registered through an App's host belongs to that App; the realm's own domains give
// the built-in App, stored as none).

/** What a metadata-document client may use: the browser flows a person approves. */
const METADATA_DOCUMENT_GRANT_TYPES: ReadonlySet<string> = new Set(['authorization_code', 'refresh_token']);

type Metadata = Record<string, unknown>;

function withoutTrust(metadata: Metadata, realm: RealmRecord): void {
  metadata.consent_type = 'Explicit';
  metadata.access_token_type = 'Jwt';
  metadata.capabilities = [];
  delete metadata.service_account_id;
  const appId = engineRequestAppId(realm);
  if (appId) metadata.app_id = appId;
  else delete metadata.app_id;
}

/**
 * A metadata document's client, shaped before the engine validates it: only the grants above (others
 * are dropped, as the engine drops values it does not support for such clients); no named
 * authentication method means `none` (the engine's default is client_secret_basic, and a document
 * naming a secret-based method was already refused when fetched); no scope means every scope of the
 * realm except Gatehouse's own, which the person approves one by one.
 */
function shapeMetadataDocumentClient(metadata: Metadata, grantableScopes: readonly string[]): void {
  const grants = (Array.isArray(metadata.grant_types) ? metadata.grant_types : []).filter((g) => METADATA_DOCUMENT_GRANT_TYPES.has(String(g)));
  if (!grants.length) throw new errors.InvalidClientMetadata('grant_types: a client metadata document may use authorization_code and refresh_token only');
  metadata.grant_types = grants;
  if (metadata.token_endpoint_auth_method === 'client_secret_basic') metadata.token_endpoint_auth_method = 'none';
  if (typeof metadata.scope !== 'string' || !metadata.scope.trim()) metadata.scope = grantableScopes.join(' ') || NO_SCOPE;
}

/** The engine's `extraClientMetadata.validator` (synchronous, run for every client the engine builds). */
export function clientMetadataValidator(realm: RealmRecord, realmScopes: readonly string[]) {
  const grantableScopes = realmScopes.filter((s) => !ADMIN_ONLY_SCOPES.has(s));
  return (ctx: KoaContextWithOIDC | undefined, key: string, _value: unknown, metadata: Metadata): void => {
    // Called once per property; one property (always validated, sent or not) runs the whole check.
    if (key !== GATEHOUSE_CLIENT_PROPERTIES[0]) return;
    if (isMetadataDocumentClientId(metadata.client_id)) {
      shapeMetadataDocumentClient(metadata, grantableScopes);
      checkUnvettedMetadata(metadata);
      withoutTrust(metadata, realm);
    } else if (REGISTRATION_ROUTES.has(ctx?.oidc?.route ?? '')) {
      checkUnvettedMetadata(metadata);
      withoutTrust(metadata, realm);
    }
  };
}
