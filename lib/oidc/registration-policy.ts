import { errors } from 'oidc-provider';
import { ADMIN_ONLY_SCOPES } from '../domain/oauth-scopes/gatehouse-scopes';
import { redirectUriErrors } from '../domain/oauth-clients/redirect-uri';

// What a client whose metadata nobody vetted may ask for: a dynamically registered client (RFC 7591)
// or its update (RFC 7592), and a client described by its own metadata document (cimd.ts). Anyone can
// bring one when the setting allows it, so the rules are the admin API's and no looser (issue 8 item
// 11): redirect URIs pass the same validator as /api/admin/oauth/clients (https, http only on a
// loopback host, or a private-use scheme), so `prompt=none` cannot be turned into an open redirect
// to an http:// page of a public host; and Gatehouse's own scopes are never taken, since only
// someone holding their permissions gives them out.

export const REGISTRATION_ROUTES: ReadonlySet<string> = new Set(['registration', 'client_update']);

const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** Throws the engine's invalid_client_metadata / invalid_redirect_uri for metadata that asks for too much. */
export function checkUnvettedMetadata(metadata: Record<string, unknown>): void {
  const redirect = redirectUriErrors(asStrings(metadata.redirect_uris));
  if (redirect.length) throw new errors.InvalidRedirectUri(`redirect_uris: ${redirect.join(' ')}`);
  const postLogout = redirectUriErrors(asStrings(metadata.post_logout_redirect_uris));
  if (postLogout.length) throw new errors.InvalidClientMetadata(`post_logout_redirect_uris: ${postLogout.join(' ')}`);
  const reserved = String(metadata.scope ?? '')
    .split(' ')
    .filter((s) => ADMIN_ONLY_SCOPES.has(s));
  if (reserved.length) throw new errors.InvalidClientMetadata(`scope ${reserved.join(' ')} cannot be registered dynamically`);
}

/** The registration routes' check (other routes load stored clients, which were checked when written). */
export function checkRegistration(route: string | undefined, metadata: Record<string, unknown>): void {
  if (route && REGISTRATION_ROUTES.has(route)) checkUnvettedMetadata(metadata);
}
