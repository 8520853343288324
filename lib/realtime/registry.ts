import { randomToken } from '../crypto/tokens';
import type { RealmRecord } from '../realm/realm-record';
import { shared } from '../runtime/shared';
import { HubConnection } from './connection';
import type { HubSession } from './session';

// The connections of this instance: by token (transport requests name it) and by realm (events are
// delivered per realm). A long-polling connection that ended stays findable by token a little
// longer, so the client's next poll hears 204 (closed) rather than 404 (unknown).

const ENDED_GRACE_MS = 10_000;
/** Connections one session may hold at once (a console opens one per tab). */
export const MAX_CONNECTIONS_PER_SESSION = 20;

type Registry = { byToken: Map<string, HubConnection>; byRealm: Map<string, Set<HubConnection>> };

function registry(): Registry {
  return shared('realtime-hub.connections', () => ({ byToken: new Map(), byRealm: new Map() }));
}

/** A new connection of a session, or null when the session already holds the most it may. */
export function openConnection(realm: RealmRecord, session: HubSession): HubConnection | null {
  const r = registry();
  const ofRealm = r.byRealm.get(realm.id) ?? new Set<HubConnection>();
  let held = 0;
  for (const c of ofRealm) if (c.session.sessionId === session.sessionId) held++;
  if (held >= MAX_CONNECTIONS_PER_SESSION) return null;
  const connection = new HubConnection(randomToken(), randomToken(), realm, session, forget);
  r.byToken.set(connection.connectionToken, connection);
  ofRealm.add(connection);
  r.byRealm.set(realm.id, ofRealm);
  return connection;
}

export function findConnection(token: string): HubConnection | undefined {
  return registry().byToken.get(token);
}

export function connectionsOfRealm(realmId: string): readonly HubConnection[] {
  return [...(registry().byRealm.get(realmId) ?? [])];
}

export function allConnections(): readonly HubConnection[] {
  return [...registry().byToken.values()].filter((c) => !c.closed);
}

function forget(connection: HubConnection): void {
  const r = registry();
  const ofRealm = r.byRealm.get(connection.realm.id);
  ofRealm?.delete(connection);
  if (ofRealm && !ofRealm.size) r.byRealm.delete(connection.realm.id);
  if (connection.transport === 'LongPolling') setTimeout(() => r.byToken.delete(connection.connectionToken), ENDED_GRACE_MS).unref();
  else r.byToken.delete(connection.connectionToken);
}
