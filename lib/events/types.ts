// Domain events: one per mutation, published after commit (ARCHITECTURE.md). Names are `area.verbed`.
export type EventActor = { id?: string; name?: string; realmSlug?: string; kind: 'user' | 'service-account' | 'client' | 'system' | 'anonymous' };

export type DomainEvent = {
  /** `area.verbed`, e.g. `realm.created`, `user.updated`, `auth.login-failed`. */
  type: string;
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
  /** PII-free facts about the change, for logs and subscribers. */
  data?: Record<string, unknown>;
};
