import { inEventAreas } from './catalog';
import type { DomainEvent } from './types';

/**
 * The realm whose cached state an event may have changed, for the caches that drop a realm's
 * entries on change: the realm the event happened in, except for a change of a realm itself (the
 * 'realm' area, made from the control plane, whose id the event carries as its realm), which
 * concerns the realm it is about. Null: every realm (the control plane moved, which changes what two
 * realms may do). Dropping every realm's entries for any realm's change let one tenant's activity
 * empty every other tenant's caches (and a test's carefully staled cache, seen in CI).
 */
export function realmAffectedBy(event: DomainEvent): string | null {
  if (!inEventAreas(event.type, ['realm'])) return event.realmId;
  if (event.type === 'realm.control-plane-transferred') return null;
  return event.subjectId ?? null;
}
