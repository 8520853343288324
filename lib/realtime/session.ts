import { readSessionCookie } from '../auth/session-cookie';
import { getRealmDb } from '../db/realm-pool';
import { findLiveSession } from '../domain/sessions/repo';
import type { RealmRecord } from '../realm/realm-record';

// The hub's person: the browser session the cookie names in the request's realm, read the way route
// handlers read it (lib/http/authenticate.ts). The token is kept with the connection so the session
// can be read again when the bus says sessions may have ended.

export type HubSession = { userId: string; userName: string; sessionId: string; token: string };

export async function sessionOfCookie(realm: RealmRecord, cookieHeader: string | undefined): Promise<HubSession | null> {
  const token = readSessionCookie(cookieHeader);
  if (!token) return null;
  return sessionOfToken(realm, token);
}

/** The live session of a token, or null (revoked, expired, the person deactivated or deleted). */
export async function sessionOfToken(realm: RealmRecord, token: string): Promise<HubSession | null> {
  const session = await findLiveSession(await getRealmDb(realm.databaseName), token);
  return session ? { userId: session.userId, userName: session.userName, sessionId: session.id, token } : null;
}
