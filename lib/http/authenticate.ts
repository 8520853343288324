import { readSessionCookie } from '../auth/session-cookie';
import type { Actor } from '../realm/context';
import { findLiveSession } from '../domain/sessions/repo';
import { getRealmDb } from '../db/realm-pool';
import type { RealmRecord } from '../realm/realm-record';

/** The actor a request's session cookie names in this realm, or anonymous. */
export async function actorFromCookie(realm: RealmRecord, cookieHeader: string | null): Promise<Actor> {
  const token = readSessionCookie(cookieHeader);
  if (!token) return { kind: 'anonymous' };
  const session = await findLiveSession(await getRealmDb(realm.databaseName), token);
  return session ? { kind: 'user', userId: session.userId, userName: session.userName, sessionId: session.id } : { kind: 'anonymous' };
}
