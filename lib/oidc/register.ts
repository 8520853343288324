import { alsoInvalidateOnRelay } from '../runtime/realm-invalidation';
import { clientCache, registerClientCacheInvalidation } from './client-cache';
import { registerOAuthEngineStore } from './engine-store';
import { invalidateEngines, registerProviderInvalidation } from './provider-cache';

const dropEngineCaches = () => {
  clientCache().clear();
  invalidateEngines();
};

/** Event subscribers of the OAuth engine: started by server.ts, the only process that runs it. */
export function registerOAuthEngine(): void {
  registerClientCacheInvalidation();
  registerProviderInvalidation();
  alsoInvalidateOnRelay(dropEngineCaches);
  registerOAuthEngineStore();
}
