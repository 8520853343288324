import type { EventPayloads, EventType } from './catalog';

// Domain events: one per mutation, published after commit (docs/architecture.md). Names and payloads are
// declared once in ./catalog.ts.
export type EventActor = {
  id?: string;
  name?: string;
  realmSlug?: string;
  kind: 'user' | 'service-account' | 'client' | 'registrant' | 'system' | 'anonymous';
};

type EventEnvelope = {
  realmId: string;
  realmSlug: string;
  /** The realm's database, so subscribers that write into it need no global-store lookup. */
  realmDatabase?: string;
  /** The id of the resource the event is about, when there is one. */
  subjectId?: string;
  actor: EventActor;
  at: Date;
  ip?: string;
  userAgent?: string;
  /**
   * Set when the publisher wrote the event's security-log entry in its own transaction (a sign-in
   * writes it with its session), so the log subscriber does not write it a second time.
   */
  securityLogged?: true;
};

/** One event of type `T` (or of any type of a union `T`, with the union of their payloads). */
export type EventOf<T extends EventType> = EventEnvelope & {
  /** `area.verbed`, e.g. `realm.created`, `user.updated`, `auth.login-failed`. */
  type: T;
  /** PII-free facts about the change, for logs and subscribers. */
  data: EventPayloads[T];
};

/** Any event: a union discriminated by `type`, so `event.type === 'realm.created'` narrows `data`. */
export type DomainEvent = { [K in EventType]: EventOf<K> }[EventType];
