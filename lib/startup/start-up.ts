import { existsSync } from 'node:fs';
import { getGlobalDb } from '../db/global-db';
import { registerLogSubscribers } from '../domain/audit/log-subscribers';
import { invalidateGroupGraph, registerGroupGraphInvalidation } from '../authz/group-graph';
import { registerPasskeySubscribers } from '../domain/passkeys/subscribers';
import { invalidateRealmSettingsCache } from '../domain/realm-settings/realm-settings';
import { invalidateAppSettingsCache } from '../domain/apps/app-settings';
import { ensureControlPlane, sweepAbandonedRealms } from '../domain/realms/ensure-control-plane';
import { settings } from '../config/env';
import { checkPlatformKey, noKeyAndNoStoreError } from '../crypto/secret-box';
import { dialect, globalSqlitePath } from '../db/dialect';
import { subscribe } from '../events/bus';
import { inEventAreas, type EventArea } from '../events/catalog';
import { realmAffectedBy } from '../events/affected-realm';
import { logInfo } from '../log/logger';
import { invalidateRealmCache } from '../realm/realm-cache';
import { alsoInvalidateOnRelay, startRealmInvalidationRelay } from '../runtime/realm-invalidation';
import { connectRedis } from '../runtime/redis';
import { shared } from '../runtime/shared';

/** Events after which other instances must drop their realm, settings and group-graph caches. */
const RELAYED_AREAS: readonly EventArea[] = [
  'realm',
  'realm-settings',
  'group',
  'role',
  'app',
  'oauth-client',
  'oauth-scope',
  'oauth-api',
  'service-account',
  'signing-key',
  'projections',
  'manifest',
];

/**
 * What the server and the CLI do before serving: check the settings and the encryption key (required
 * from outside the data in production, crypto/secret-box.ts; `mayCreateKey` lets the development
 * server, never the CLI, generate one on an empty store), migrate the global store (never
 * the realm databases: they are upgraded on first use or by `gatehouse migrate`), register the event
 * subscribers, and create the control plane on an empty store.
 */
export async function startUp(options: { seed: boolean; relay: boolean; mayCreateKey: boolean }): Promise<void> {
  const s = settings();
  // Without a key the CLI cannot use a store it would have to create (crypto/secret-box.ts).
  if (!options.mayCreateKey && !s.secretKey && dialect() === 'sqlite' && !existsSync(globalSqlitePath())) throw noKeyAndNoStoreError(globalSqlitePath());
  await getGlobalDb();
  if ((await checkPlatformKey({ mayCreateKey: options.mayCreateKey })).removedStoredCopy)
    logInfo('the encryption key is configured; its copy in the global store was removed');
  registerLogSubscribers();
  registerGroupGraphInvalidation();
  registerPasskeySubscribers();
  if (options.relay) await startRelay();
  if (options.seed) {
    await ensureControlPlane();
    await sweepAbandonedRealms();
  }
}

/** Tells other instances (through Redis) of the changes that make their caches stale, and listens for theirs. */
async function startRelay(): Promise<void> {
  alsoInvalidateOnRelay(() => invalidateRealmCache());
  alsoInvalidateOnRelay((realmId) => invalidateRealmSettingsCache(realmId ?? undefined));
  alsoInvalidateOnRelay((realmId) => invalidateAppSettingsCache(realmId ?? undefined));
  alsoInvalidateOnRelay((realmId) => invalidateGroupGraph(realmId ?? undefined));
  const announce = await startRealmInvalidationRelay();
  if (!announce) return;
  await connectRedis();
  shared('realm-relay.announcer', () =>
    subscribe(async (event) => {
      if (!inEventAreas(event.type, RELAYED_AREAS)) return;
      // A change of a realm itself (made from the control plane) names the realm it is about.
      await announce(realmAffectedBy(event));
    }),
  );
}
