// OAuth Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client_id that
// is an https URL names a JSON document, published there by the client, that describes it. Client
// ids made by the admin API, by service-account credentials and by dynamic registration never
// contain ':' or '/' (unreserved URL characters only, lib/domain/oauth-clients/schemas.ts), so such
// an id can only be a metadata document's, and nothing stored can be confused with one. Pure.

export function isMetadataDocumentClientId(clientId: unknown): clientId is string {
  return typeof clientId === 'string' && /^https:\/\//i.test(clientId);
}

/** The host that publishes a metadata document (shown beside its self-declared name), or null. */
export function metadataDocumentHost(clientId: string): string | null {
  if (!isMetadataDocumentClientId(clientId)) return null;
  try {
    return new URL(clientId).host || null;
  } catch {
    return null;
  }
}
