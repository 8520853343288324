import { logError } from '../log/logger';
import { shared } from '../runtime/shared';
import type { DomainEvent } from './types';

// The one internal event bus. Subscribers (audit logs, cache invalidation, the real-time hub) run
// after the publisher's transaction has committed; a failing subscriber is logged and never fails
// the request that caused the event.
type Handler = (event: DomainEvent) => void | Promise<void>;
type Bus = { handlers: Handler[]; pending: Set<Promise<void>> };

function bus(): Bus {
  return shared('event-bus', () => ({ handlers: [], pending: new Set() }));
}

export function subscribe(handler: Handler): () => void {
  const b = bus();
  b.handlers.push(handler);
  return () => {
    b.handlers = b.handlers.filter((h) => h !== handler);
  };
}

/**
 * Hands an event to every subscriber. The returned promise settles when they are all done (it never
 * rejects), so callers that want the audit trail written before answering can await it.
 */
export function publish(event: DomainEvent): Promise<void> {
  const b = bus();
  const runs = b.handlers.map((handler) => {
    const p: Promise<void> = Promise.resolve()
      .then(() => handler(event))
      .catch((e: unknown) => logError('event subscriber failed', e, { event: event.type }))
      .finally(() => b.pending.delete(p));
    b.pending.add(p);
    return p;
  });
  return Promise.all(runs).then(() => undefined);
}

/** Waits until every subscriber has finished with the events published so far (CLI exit, tests). */
export async function drainEvents(): Promise<void> {
  while (bus().pending.size) await Promise.all([...bus().pending]);
}
