import { getGlobalDb } from '../db/global-db';
import { registerLogSubscribers } from '../domain/audit/log-subscribers';
import { registerGroupGraphInvalidation } from '../authz/group-graph';
import { registerPasskeySubscribers } from '../domain/passkeys/subscribers';
import { ensureControlPlane, sweepAbandonedRealms } from '../domain/realms/ensure-control-plane';
import { settings } from '../config/env';
import { checkPlatformKey } from '../crypto/secret-box';
import { logInfo } from '../log/logger';
import { startRealmInvalidationRelay } from './realm-invalidation';

/**
 * What the server and the CLI do before serving: check the settings and the encryption key (required
 * from outside the data in production, crypto/secret-box.ts), migrate the global store (never
 * the realm databases: they are upgraded on first use or by `gatehouse migrate`), register the event
 * subscribers, and create the control plane on an empty store.
 */
export async function startUp(options: { seed: boolean; relay: boolean }): Promise<void> {
  settings();
  await getGlobalDb();
  if ((await checkPlatformKey()).removedStoredCopy) logInfo('the encryption key is configured; its copy in the global store was removed');
  registerLogSubscribers();
  registerGroupGraphInvalidation();
  registerPasskeySubscribers();
  if (options.relay) await startRealmInvalidationRelay();
  if (options.seed) {
    await ensureControlPlane();
    await sweepAbandonedRealms();
  }
}
