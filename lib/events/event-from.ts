import type { DomainContext } from '../domain/context';
import type { DomainEvent, EventActor } from './types';

function actorOf(ctx: DomainContext): EventActor {
  const a = ctx.actor;
  if (a.kind === 'user') return { kind: 'user', id: a.userId, name: a.userName, realmSlug: ctx.realm.slug };
  if (a.kind === 'service-account') return { kind: 'service-account', id: a.serviceAccountId, name: a.name, realmSlug: ctx.realm.slug };
  if (a.kind === 'client') return { kind: 'client', name: a.clientId, realmSlug: ctx.realm.slug };
  if (a.kind === 'system') return { kind: 'system', name: a.reason };
  return { kind: 'anonymous' };
}

/** Builds the event for a change made in `ctx` (realm, actor, address and agent filled in). */
export function eventFrom(ctx: DomainContext, type: string, subjectId?: string, data?: Record<string, unknown>): DomainEvent {
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
