import { alsoInvalidateOnRelay, type RelayScope } from '../runtime/realm-invalidation';
import { clientCache, dropRealmClients, registerClientCacheInvalidation } from './client-cache';
import { registerOAuthEngineStore } from './engine-store';
import { invalidateEngines, registerProviderInvalidation } from './provider-cache';

const dropEngineCaches = (realmId: RelayScope) => {
  if (realmId) dropRealmClients(realmId);
  else clientCache().clear();
  invalidateEngines(realmId ?? undefined);
};

/** Event subscribers of the OAuth engine: started by server.ts, the only process that runs it. */
export function registerOAuthEngine(): void {
  registerClientCacheInvalidation();
  registerProviderInvalidation();
  alsoInvalidateOnRelay(dropEngineCaches);
  registerOAuthEngineStore();
}
