import type Provider from 'oidc-provider';
import { clientSecretMatches } from '../domain/oauth-clients/client-secret';

// The one file that reaches into oidc-provider internals (ARCHITECTURE.md).
//
// Client secrets are stored as SHA-256 digests (ARCHITECTURE.md "Secrets by kind"), and the adapter
// hands the digest to the engine as `client_secret`. The engine's own comparison expects plaintext,
// so the client class of each provider compares the digest of what was presented instead. HMAC-based
// client authentication (client_secret_jwt) and HS* signing, which need the plaintext, are disabled
// in configuration.ts.
export function installInternals(provider: Provider): void {
  const clientClass = (provider as unknown as { Client: { prototype: { compareClientSecret(this: { clientSecret?: string }, actual: string): boolean } } }).Client;
  clientClass.prototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: string): boolean {
    return typeof this.clientSecret === 'string' && typeof actual === 'string' && clientSecretMatches(this.clientSecret, actual);
  };
}

type RegistrationCtx = { oidc?: { route?: string; client?: { clientSecret?: string } }; body?: unknown };

/**
 * Engine middleware: RFC 7592 reads and updates of a registered client answer with the client's
 * metadata, whose `client_secret` is the stored digest, not the secret. The digest is taken out; the
 * client already holds its secret from registration (or from the update that rotated it).
 */
export async function hideStoredSecretDigest(ctx: RegistrationCtx, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.oidc?.route !== 'client' && ctx.oidc?.route !== 'client_update') return;
  const body = ctx.body as Record<string, unknown> | undefined;
  const digest = ctx.oidc.client?.clientSecret;
  if (body && typeof body === 'object' && digest && body.client_secret === digest) delete body.client_secret;
}
