import { getGlobalDb } from '../../db/global-db';
import { getRealmDb } from '../../db/realm-pool';
import { newId } from '../../crypto/tokens';
import { subscribe } from '../../events/bus';
import type { DomainEvent } from '../../events/types';
import { shared } from '../../runtime/shared';
import { getRealmRecordById } from '../../realm/realm-store';
import { inEventAreas, type EventArea, type EventType } from '../../events/catalog';
import { insertSecurityLogEntry } from './security-log-sql';

// Subscribers that turn domain events into the two logs of spec 4.7 "Logs": realm changes into the
// PII-free platform audit (global store) with changes to the platform's own settings, everything a
// realm's users do into its security log.

/** Event area -> security-log category (realm areas go to the platform audit instead). */
const REALM_CATEGORIES: { readonly [A in EventArea]?: string } = {
  auth: 'Authentication',
  user: 'UserAdministration',
  group: 'Authorization',
  role: 'Authorization',
  membership: 'Authorization',
  app: 'Authorization',
  'service-account': 'Authorization',
  position: 'Authorization',
  'oauth-client': 'OAuth',
  'oauth-scope': 'OAuth',
  'oauth-api': 'OAuth',
  'login-provider': 'Authentication',
  'external-link': 'Authentication',
  'signing-key': 'OAuth',
  invite: 'Authentication',
  projections: 'Maintenance',
  account: 'Privacy',
  manifest: 'Configuration',
};

function securityCategory(type: EventType): string | undefined {
  return Object.entries(REALM_CATEGORIES).find(([area]) => type.startsWith(`${area}.`))?.[1];
}

/** The event's facts read by name, whatever its type (the catalog's payloads are all plain objects). */
function factsOf(event: DomainEvent): Readonly<Record<string, unknown>> {
  return event.data ?? {};
}

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

async function writeSecurityLog(event: DomainEvent, category: string): Promise<void> {
  const databaseName = event.realmDatabase ?? (await getRealmRecordById(event.realmId))?.databaseName;
  if (!databaseName) return; // the realm is gone (hard delete): nothing to write into
  const facts = factsOf(event);
  const db = await getRealmDb(databaseName);
  await insertSecurityLogEntry(db, {
    id: newId(),
    createdAt: event.at,
    category,
    eventType: event.type,
    success: facts.success !== false,
    userId: event.actor.id ?? (typeof facts.userId === 'string' ? facts.userId : null),
    userName: event.actor.name ?? (typeof facts.userName === 'string' ? facts.userName : null),
    ipAddress: event.ip ?? null,
    userAgent: event.userAgent?.slice(0, 512) ?? null,
    detail: event.data ? JSON.stringify(event.data) : null,
  });
}

/** Registers the log subscribers once per process. */
export function registerLogSubscribers(): void {
  shared('log-subscribers', () =>
    subscribe(async (event) => {
      if (inEventAreas(event.type, ['realm'])) return writePlatformAudit(event, 'Realm');
      if (inEventAreas(event.type, ['platform-settings'])) return writePlatformAudit(event, 'Platform');
      const category = securityCategory(event.type);
      if (category) await writeSecurityLog(event, category);
    }),
  );
}
