import type { DomainContext } from '../realm/context';
import type { BareEventType, EventPayloads, EventType } from './catalog';
import type { EventActor, EventOf } from './types';

function actorOf(ctx: DomainContext): EventActor {
  const a = ctx.actor;
  if (a.kind === 'user') return { kind: 'user', id: a.userId, name: a.userName, realmSlug: ctx.realm.slug };
  if (a.kind === 'service-account') return { kind: 'service-account', id: a.serviceAccountId, name: a.name, realmSlug: ctx.realm.slug };
  if (a.kind === 'client') return { kind: 'client', name: a.clientId, realmSlug: ctx.realm.slug };
  // Anonymous: the client id is the event's fact, not a person's name for the logs.
  if (a.kind === 'registrant') return { kind: 'registrant' };
  if (a.kind === 'system') return { kind: 'system', name: a.reason };
  return { kind: 'anonymous' };
}

/**
 * Builds the event for a change made in `ctx` (realm, actor, address and agent filled in). Only
 * names of the event catalog are accepted, each with the payload the catalog declares for it.
 */
export function eventFrom<T extends BareEventType>(ctx: DomainContext, type: T, subjectId?: string): EventOf<T>;
export function eventFrom<T extends EventType>(ctx: DomainContext, type: T, subjectId: string | undefined, data: EventPayloads[T]): EventOf<T>;
export function eventFrom(ctx: DomainContext, type: EventType, subjectId?: string, data?: EventPayloads[EventType]): EventOf<EventType> {
  return {
    type,
    realmId: ctx.realm.id,
    realmSlug: ctx.realm.slug,
    realmDatabase: ctx.realm.databaseName,
    subjectId,
    actor: actorOf(ctx),
    at: new Date(),
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    data,
  };
}
