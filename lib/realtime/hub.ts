import { Redis } from 'ioredis';
import { CONTROL_PLANE_APP_SLUG, MAIN_APP_SLUG, type AppContextSlug } from '../authz/catalog';
import { hasPermission } from '../authz/evaluate';
import { grantsOf } from '../authz/require-permission';
import { settings } from '../config/env';
import { subscribe } from '../events/bus';
import { inEventAreas, type EventType } from '../events/catalog';
import type { DomainEvent } from '../events/types';
import { logError } from '../log/logger';
import { domainContext } from '../realm/context';
import { redisClient, redisReady, watchRedis } from '../runtime/redis';
import { shared } from '../runtime/shared';
import { changeOf, REALM_ENDING, SESSION_ENDING, type ChangedMessage, type ReadPermission } from './changes';
import type { HubConnection } from './connection';
import { invocationFrame } from './protocol';
import { allConnections, connectionsOfRealm } from './registry';
import { sessionOfToken } from './session';

// The hub's side of the event bus (docs/realtime.md): each committed mutation becomes a note for its
// realm; the note is delivered to this instance's connections and, with REDIS_URL, published for the
// other instances, which deliver it to theirs. Who may hear a change is decided where it is delivered,
// from the person's live grants.

/** What one event means to the hub, in a form that crosses instances. */
export type HubNote = {
  realmId: string;
  change?: { message: ChangedMessage; read: ReadPermission };
  /** A person whose sessions may have ended: their connections re-read their session. */
  sessionsOf?: string;
  /** A realm that no longer serves: its connections end. */
  endedRealm?: string;
  /** Memberships, roles, groups or Apps changed: cached grants are stale. */
  grantsChanged?: boolean;
};

const CHANNEL = 'gatehouse:hub';
export const PING_EVERY_MS = 15_000;
export const SILENCE_LIMIT_MS = 30_000;
/** A negotiated connection no transport request claimed within this time is dropped. */
const UNCLAIMED_LIMIT_MS = 15_000;
/** Sessions are read again this often even without a bus event (expiry, a change missed during a Redis outage). */
const SESSION_RECHECK_MS = 60_000;
/** How long a connection trusts the grants it read. */
const GRANTS_TTL_MS = 10_000;
const GRAPH_AREAS = ['group', 'role', 'membership', 'app', 'service-account', 'projections', 'manifest'] as const;

export function noteOf(event: DomainEvent): HubNote | null {
  const type: EventType = event.type;
  const note: HubNote = { realmId: event.realmId };
  const change = changeOf(event);
  if (change) note.change = change;
  if (SESSION_ENDING.has(type) && event.subjectId) note.sessionsOf = event.subjectId;
  if (REALM_ENDING.has(type) && event.subjectId) note.endedRealm = event.subjectId;
  if (inEventAreas(type, GRAPH_AREAS)) note.grantsChanged = true;
  return note.change || note.sessionsOf || note.endedRealm || note.grantsChanged ? note : null;
}

/** Delivers a note to this instance's connections. */
export async function deliver(note: HubNote): Promise<void> {
  if (note.endedRealm) for (const c of connectionsOfRealm(note.endedRealm)) c.close('The realm no longer serves.', false);
  const connections = connectionsOfRealm(note.realmId);
  if (!connections.length) return;
  if (note.grantsChanged) for (const c of connections) c.grants.clear();
  if (note.sessionsOf) await recheckSessions(connections.filter((c) => c.session.userId === note.sessionsOf));
  const change = note.change;
  if (!change) return;
  const frame = invocationFrame('changed', [change.message]);
  await Promise.all(
    connections.map(async (c) => {
      if (c.closed || !c.handshaken) return;
      if (await mayRead(c, change.read)) c.send(frame);
    }),
  );
}

/** Ends the connections whose session is no longer live (read once per distinct session). */
async function recheckSessions(connections: readonly HubConnection[]): Promise<void> {
  const bySession = new Map<string, HubConnection[]>();
  for (const c of connections) if (!c.closed) bySession.set(c.session.token, [...(bySession.get(c.session.token) ?? []), c]);
  await Promise.all(
    [...bySession.values()].map(async (group) => {
      const live = await sessionOfToken(group[0].realm, group[0].session.token).catch((e: unknown) => {
        logError('hub session check failed', e);
        return undefined; // unknown: keep the connection, the next check decides
      });
      if (live === null || (live && live.sessionId !== group[0].session.sessionId)) for (const c of group) c.close('The session has ended.', false);
    }),
  );
}

async function mayRead(c: HubConnection, read: ReadPermission): Promise<boolean> {
  const app: AppContextSlug = typeof read === 'string' ? MAIN_APP_SLUG : CONTROL_PLANE_APP_SLUG;
  const permission = typeof read === 'string' ? read : read.permission;
  let cached = c.grants.get(app);
  if (!cached || Date.now() - cached.at > GRANTS_TTL_MS) {
    const ctx = domainContext(c.realm, { kind: 'user', userId: c.session.userId, userName: c.session.userName, sessionId: c.session.sessionId });
    cached = { at: Date.now(), grants: grantsOf(ctx, app) };
    c.grants.set(app, cached);
  }
  try {
    return hasPermission(await cached.grants, permission);
  } catch (e) {
    c.grants.delete(app);
    logError('hub permission check failed', e);
    return false;
  }
}

/** Pings quiet connections, ends silent and unclaimed ones, and re-reads sessions now and then. */
function sweep(now: number, recheck: boolean): void {
  for (const c of allConnections()) {
    if (!c.transport) {
      if (now - c.createdAt > UNCLAIMED_LIMIT_MS) c.end();
      continue;
    }
    if (now - c.lastReceivedAt > SILENCE_LIMIT_MS) c.close('Server timeout elapsed without receiving a message from the client.', true);
    else if (now - c.lastSentAt >= PING_EVERY_MS) c.ping();
  }
  if (recheck) void recheckSessions(allConnections()).catch((e: unknown) => logError('hub session sweep failed', e));
}

/** Subscribes the hub to the bus (and to the other instances through Redis). Once per process. */
export async function startRealtimeHub(): Promise<void> {
  const instanceId = shared('instance-id', () => crypto.randomUUID());
  const url = settings().redisUrl;
  if (url) {
    await shared('realtime-hub.redis', async () => {
      const sub = new Redis(url, { maxRetriesPerRequest: null });
      watchRedis(sub, 'hub fan-out');
      // Not awaited: a Redis that is down must not hold the start-up (ioredis subscribes once it connects).
      void sub.subscribe(CHANNEL).catch((e: unknown) => logError('redis subscribe failed', e));
      sub.on('message', (_channel: string, message: string) => {
        const parsed = parseRelayed(message);
        if (parsed && parsed.origin !== instanceId) void deliver(parsed.note).catch((e: unknown) => logError('hub delivery failed', e));
      });
      return sub;
    });
  }
  shared('realtime-hub.subscription', () =>
    subscribe((event) => {
      const note = noteOf(event);
      if (!note) return;
      // Off the publisher's path: a request that awaits its event's subscribers (the audit trail)
      // does not wait for permission checks and session reads of every console.
      void deliver(note).catch((e: unknown) => logError('hub delivery failed', e));
      // While Redis is down the note reaches this instance's consoles only (docs/deployment.md).
      if (url && redisReady())
        void redisClient()
          .publish(CHANNEL, JSON.stringify({ origin: instanceId, note }))
          .catch((e: unknown) => logError('hub relay failed', e));
    }),
  );
  shared('realtime-hub.sweep', () => {
    let last = Date.now();
    const timer = setInterval(() => {
      const now = Date.now();
      const recheck = now - last >= SESSION_RECHECK_MS;
      if (recheck) last = now;
      sweep(now, recheck);
    }, 2_000);
    timer.unref();
    return timer;
  });
}

/** Ends every connection (shutdown): clients may reconnect to another instance. */
export function closeAllConnections(): void {
  for (const c of allConnections()) c.close('The server is shutting down.', true);
}

function parseRelayed(message: string): { origin: string; note: HubNote } | null {
  try {
    const value = JSON.parse(message) as { origin?: unknown; note?: HubNote };
    return typeof value.origin === 'string' && value.note && typeof value.note.realmId === 'string' ? { origin: value.origin, note: value.note } : null;
  } catch {
    return null;
  }
}
