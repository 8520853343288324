import type Provider from 'oidc-provider';
import { clientSecretMatches } from '../domain/oauth-clients/client-secret';
import { clientExtra } from './client-metadata';

// The one file that reaches into oidc-provider internals (docs/architecture.md).
//
// Client secrets are stored as SHA-256 digests (docs/security.md "Secrets at rest"), and the adapter
// hands the digest to the engine as `client_secret`. The engine's own comparison expects plaintext,
// so the client class of each provider compares the digest of what was presented instead. HMAC-based
// client authentication (client_secret_jwt) and HS* signing, which need the plaintext, are disabled
// in configuration.ts.
export function installInternals(provider: Provider, storedClient: StoredClientLookup): void {
  patchClientSecretComparison(provider);
  keepImplicitOfflineAccess(provider);
  reuseBuiltClients(provider, storedClient);
}

/** The stored metadata of a client, one object for as long as the client is unchanged; null for none. */
export type StoredClientLookup = (clientId: string) => Promise<object | null>;

/**
 * The engine's `Client.find` asks the adapter for the client's metadata on every request, then
 * serializes and hashes it to find the client it built from the same metadata before
 * (lib/models/client.js); the adapter must hand it a copy, since building a client may change it.
 * The stored metadata is one cached object for as long as the client is unchanged (client-cache.ts),
 * so the client built from it is kept beside that object: an unchanged client is found by a map read.
 * A changed client is a new object, so it misses and the engine builds it again, as it would.
 */
function reuseBuiltClients(provider: Provider, storedClient: StoredClientLookup): void {
  const clientClass = (provider as unknown as { Client: { find(id: unknown): Promise<object | undefined> } }).Client;
  const find = clientClass.find.bind(clientClass);
  const built = new WeakMap<object, object>();
  clientClass.find = async (id: unknown) => {
    const metadata = typeof id === 'string' && id.length > 0 ? await storedClient(id) : null;
    if (!metadata) return find(id);
    const kept = built.get(metadata);
    if (kept) return kept;
    const client = await find(id);
    if (client) built.set(metadata, client);
    return client;
  };
}

function patchClientSecretComparison(provider: Provider): void {
  const clientClass = (provider as unknown as { Client: { prototype: { compareClientSecret(this: { clientSecret?: string }, actual: string): boolean } } })
    .Client;
  clientClass.prototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: string): boolean {
    return typeof this.clientSecret === 'string' && typeof actual === 'string' && clientSecretMatches(this.clientSecret, actual);
  };
}

type RegistrationCtx = { oidc?: { route?: string; client?: { clientSecret?: string } }; body?: unknown };

/**
 * After the engine answered (engine-hooks.ts): RFC 7592 reads and updates of a registered client answer with the client's
 * metadata, whose `client_secret` is the stored digest, not the secret. The digest is taken out; the
 * client already holds its secret from registration (or from the update that rotated it).
 */
export function hideStoredSecretDigest(ctx: RegistrationCtx): void {
  if (ctx.oidc?.route !== 'client' && ctx.oidc?.route !== 'client_update') return;
  const body = ctx.body as Record<string, unknown> | undefined;
  const digest = ctx.oidc.client?.clientSecret;
  if (body && typeof body === 'object' && digest && body.client_secret === digest) delete body.client_secret;
}

type PromptContext = {
  route?: string;
  params?: { scope?: unknown; prompt?: unknown };
  client?: { scope?: string; grantTypeAllowed(type: string): boolean };
};

const AUTHORIZATION_ROUTES = new Set(['authorization', 'pushed_authorization_request']);

/**
 * Whether an authorization request is one where the administrator approved offline access: the
 * client is Implicit-consent, may refresh, has `offline_access` among its scopes and asks for it,
 * and the request is not `prompt=none`.
 */
export function administratorApprovedOffline(oidc: PromptContext): boolean {
  const { route, params, client } = oidc;
  if (!route || !AUTHORIZATION_ROUTES.has(route) || !client || !params) return false;
  if (typeof params.scope !== 'string' || !params.scope.split(' ').includes('offline_access')) return false;
  if (typeof params.prompt === 'string' && params.prompt.split(' ').includes('none')) return false;
  return (
    clientExtra(client, 'consent_type') === 'Implicit' &&
    client.grantTypeAllowed('refresh_token') &&
    String(client.scope ?? '')
      .split(' ')
      .includes('offline_access')
  );
}

/**
 * The engine drops `offline_access` from an authorization request without `prompt=consent` (OIDC
 * Core 11), so a relying party that never sends it (most libraries) gets no refresh token. For an
 * Implicit-consent client the administrator approved offline access (issue 8 item 14): such a
 * request counts as asking for consent, which keeps the scope, and the consent step is then granted
 * without a page (interactions.ts), as for any Implicit client. Explicit clients keep the engine's
 * rule: offline access is approved on the consent page, reached with `prompt=consent`.
 */
function keepImplicitOfflineAccess(provider: Provider): void {
  const proto = (provider as unknown as { OIDCContext: { prototype: object } }).OIDCContext.prototype;
  const base = Object.getOwnPropertyDescriptor(proto, 'prompts')?.get;
  if (!base) throw new Error('oidc-provider changed: OIDCContext.prompts is not a getter');
  Object.defineProperty(proto, 'prompts', {
    configurable: true,
    get(this: PromptContext) {
      const prompts = base.call(this) as Set<string>;
      if (!prompts.has('consent') && administratorApprovedOffline(this)) prompts.add('consent');
      return prompts;
    },
  });
}
