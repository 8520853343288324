import { getGlobalDb } from '../../db/global-db';
import { getRealmDb } from '../../db/realm-pool';
import { newId } from '../../crypto/tokens';
import { subscribe } from '../../events/bus';
import type { DomainEvent } from '../../events/types';
import { shared } from '../../runtime/shared';
import { getRealmRecordById } from '../../realm/realm-store';

// Subscribers that turn domain events into the two logs of spec 4.7 "Logs": realm changes into the
// PII-free platform audit (global store), everything a realm's users do into its security log.

/** Event type prefix -> security-log category. */
const REALM_CATEGORIES: Record<string, string> = {
  auth: 'Authentication',
  user: 'UserAdministration',
  group: 'Authorization',
  role: 'Authorization',
  membership: 'Authorization',
  'service-account': 'Authorization',
  'oauth-client': 'OAuth',
  'oauth-scope': 'OAuth',
  'oauth-api': 'OAuth',
  'signing-key': 'OAuth',
  invite: 'Authentication',
};

function securityCategory(type: string): string | undefined {
  return REALM_CATEGORIES[type.split('.')[0]];
}

async function writePlatformAudit(event: DomainEvent): Promise<void> {
  const db = await getGlobalDb();
  await db.platformAuditEvent.create({
    data: {
      id: newId(),
      createdAt: event.at,
      category: 'Realm',
      eventType: event.type,
      // The realm the event is about (realm events carry it as `slug`), not the caller's realm.
      realmSlug: typeof event.data?.slug === 'string' ? event.data.slug : event.realmSlug,
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
  const db = await getRealmDb(databaseName);
  await db.authLogEvent.create({
    data: {
      id: newId(),
      createdAt: event.at,
      category,
      eventType: event.type,
      success: event.data?.success !== false,
      userId: event.actor.id ?? (typeof event.data?.userId === 'string' ? event.data.userId : null),
      userName: event.actor.name ?? (typeof event.data?.userName === 'string' ? event.data.userName : null),
      ipAddress: event.ip ?? null,
      userAgent: event.userAgent?.slice(0, 512) ?? null,
      detail: event.data ? JSON.stringify(event.data) : null,
    },
  });
}

/** Registers the log subscribers once per process. */
export function registerLogSubscribers(): void {
  shared('log-subscribers', () =>
    subscribe(async (event) => {
      if (event.type.startsWith('realm.')) return writePlatformAudit(event);
      const category = securityCategory(event.type);
      if (category) await writeSecurityLog(event, category);
    }),
  );
}
