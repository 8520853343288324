import type { RealmTx } from '../../db/types';
import type { UpstreamOidcConfig } from '../external-identity/oidc/upstream-oidc';
import { readProviderSecret } from '../login-providers/provider-secret';
import type { ProviderRow } from '../login-providers/repo';

/** What the OIDC adapter needs of a provider: its section, its secret and its version (the cache key). */
export async function oidcConfigOf(db: RealmTx, provider: ProviderRow): Promise<UpstreamOidcConfig> {
  if (!provider.config.Oidc) throw new Error(`login provider ${provider.id} has no Oidc section`);
  return {
    providerId: provider.id,
    version: provider.version,
    section: provider.config.Oidc,
    clientSecret: provider.hasSecret ? await readProviderSecret(db, provider.id) : undefined,
  };
}
