import { getGlobalDb } from '../../db/global-db';
import { getRealmDb } from '../../db/realm-pool';
import { newId } from '../../crypto/tokens';
import { subscribe } from '../../events/bus';
import type { DomainEvent } from '../../events/types';
import { shared } from '../../runtime/shared';
import { getRealmRecordById } from '../../realm/realm-store';
import { inEventAreas } from '../../events/catalog';
import { insertSecurityLogEntry, type SecurityLogEntry } from './security-log-sql';
import { factsOf, securityLogEntryOf } from './security-log-entry';

// Subscribers that turn domain events into the two logs of spec 4.7 "Logs": realm changes into the
// PII-free platform audit (global store) with changes to the platform's own settings, everything a
// realm's users do into its security log.

async function writePlatformAudit(event: DomainEvent, category: string): Promise<void> {
  const facts = factsOf(event);
  const db = await getGlobalDb();
  await db.platformAuditEvent.create({
    data: {
      id: newId(),
      createdAt: event.at,
      category,
      eventType: event.type,
      // The realm the event is about (realm events carry it as `slug`), not the caller's realm.
      realmSlug: typeof facts.slug === 'string' ? facts.slug : event.realmSlug,
      actorId: event.actor.id ?? null,
      actorRealm: event.actor.realmSlug ?? null,
      targetId: event.subjectId ?? null,
      detail: event.data ? JSON.stringify(event.data) : null,
    },
  });
}

async function writeSecurityLog(event: DomainEvent, entry: SecurityLogEntry): Promise<void> {
  const databaseName = event.realmDatabase ?? (await getRealmRecordById(event.realmId))?.databaseName;
  if (!databaseName) return; // the realm is gone (hard delete): nothing to write into
  await insertSecurityLogEntry(await getRealmDb(databaseName), entry);
}

/** Registers the log subscribers once per process. */
export function registerLogSubscribers(): void {
  shared('log-subscribers', () =>
    subscribe(async (event) => {
      if (inEventAreas(event.type, ['realm'])) return writePlatformAudit(event, 'Realm');
      if (inEventAreas(event.type, ['platform-settings'])) return writePlatformAudit(event, 'Platform');
      const entry = event.securityLogged ? undefined : securityLogEntryOf(event);
      if (entry) await writeSecurityLog(event, entry);
    }),
  );
}
