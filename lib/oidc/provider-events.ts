import type Provider from 'oidc-provider';
import { logError, logWarn } from '../log/logger';
import type { RealmRecord } from '../realm/realm-record';

// The engine reports through events: server errors go to the log (never to the client), and
// refresh-token reuse, which revokes the whole token family, is logged as a security signal.
export function watchProviderEvents(provider: Provider, realm: RealmRecord): void {
  provider.on('server_error', (_ctx: unknown, error: unknown) => logError('oauth engine error', error, { realm: realm.slug }));
  provider.on('grant.error', (_ctx: unknown, error: { name?: string; error_description?: string }) => {
    if (error?.name === 'InvalidGrant' && /consumed|reuse/i.test(error.error_description ?? '')) {
      logWarn('oauth grant reused: its token family is revoked', { realm: realm.slug });
    }
  });
}
