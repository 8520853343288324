import { newId } from '../../crypto/tokens';
import { inEventAreas, type EventArea, type EventType } from '../../events/catalog';
import type { DomainEvent } from '../../events/types';
import type { SecurityLogEntry } from './security-log-sql';

// What a realm event writes into the realm's security log (spec 4.7 "Logs"): its category and row.

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
  'oauth-token': 'OAuth',
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
export function factsOf(event: DomainEvent): Readonly<Record<string, unknown>> {
  return event.data ?? {};
}

/**
 * The security-log entry of a realm event (spec 4.7), or undefined for events that go to the
 * platform audit or to no log. Built here for the subscriber, and by a publisher that writes the
 * entry in its own transaction (then it marks the event `securityLogged`).
 */
export function securityLogEntryOf(event: DomainEvent): SecurityLogEntry | undefined {
  if (inEventAreas(event.type, ['realm', 'platform-settings'])) return undefined;
  const category = securityCategory(event.type);
  if (!category) return undefined;
  const facts = factsOf(event);
  return {
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
  };
}
