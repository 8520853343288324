import type { RealmDb, RealmTx } from '../../db/types';
import { newId, randomToken, sha256Hex } from '../../crypto/tokens';
import { SESSION_TTL_SECONDS } from '../../auth/session-cookie';
import type { SecurityLogEntry } from '../audit/security-log-sql';
import { findSessionWithUser, insertSession, type NewSession } from './session-sql';

// Server-side browser sessions. The cookie carries 256 random bits; only their SHA-256 is stored,
// so a leaked database cannot be replayed as cookies.
const ABSOLUTE_LIFETIME_MS = 30 * 24 * 3600 * 1000;
const TOUCH_AFTER_MS = 60 * 60 * 1000;

export type LiveSession = { id: string; userId: string; userName: string; amr: string[]; createdAt: Date };

export async function createSession(
  db: RealmDb,
  input: {
    userId: string;
    amr: string[];
    ipAddress?: string;
    userAgent?: string;
    touchLastLogin?: boolean;
    replacesToken?: string;
    /** The upstream of an external sign-in and its sealed ID token (RP-initiated logout). */
    loginProviderId?: string;
    upstreamIdTokenSealed?: string;
    /** The sign-in's security-log entry, committed with the session (session-sql.ts). */
    logEntry?: SecurityLogEntry;
  },
): Promise<{ token: string; sessionId: string }> {
  // The browser's earlier session (any person's) ends when a new one starts in it: one browser,
  // one live session, so a sign-in on a shared computer leaves nothing behind to resume.
  if (input.replacesToken)
    await db.session.updateMany({ where: { tokenHash: sha256Hex(input.replacesToken), revokedAt: null }, data: { revokedAt: new Date() } });
  const token = randomToken();
  const now = new Date();
  const id = newId();
  const session: NewSession = {
    id,
    userId: input.userId,
    tokenHash: sha256Hex(token),
    amr: JSON.stringify(input.amr),
    ipAddress: input.ipAddress?.slice(0, 64),
    userAgent: input.userAgent?.slice(0, 512),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000),
    loginProviderId: input.loginProviderId,
    upstreamIdTokenEncrypted: input.upstreamIdTokenSealed,
  };
  await insertSession(db, session, { touchLastLogin: input.touchLastLogin, logEntry: input.logEntry });
  return { token, sessionId: id };
}

/** The live session a cookie token names, or null (unknown, revoked, expired, user inactive). */
export async function findLiveSession(db: RealmDb, token: string): Promise<LiveSession | null> {
  const row = await findSessionWithUser(db, sha256Hex(token));
  const now = Date.now();
  if (!row || row.revokedAt || row.expiresAt.getTime() <= now) return null;
  if (row.createdAt.getTime() + ABSOLUTE_LIFETIME_MS <= now) return null;
  if (!row.user.isActive || row.user.deletedAt) return null;
  // Sliding expiry, written at most once an hour to keep reads cheap.
  if (now - row.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
    await db.session.update({
      where: { id: row.id },
      data: { lastSeenAt: new Date(now), expiresAt: new Date(now + SESSION_TTL_SECONDS * 1000) },
    });
  }
  return { id: row.id, userId: row.userId, userName: row.user.userName, amr: JSON.parse(row.amr) as string[], createdAt: row.createdAt };
}

export async function revokeSession(db: RealmDb, sessionId: string): Promise<void> {
  await db.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: new Date() } });
}

/** Revokes every live session of a user, optionally keeping one (the caller's). */
export async function revokeUserSessions(db: RealmDb | RealmTx, userId: string, exceptSessionId?: string): Promise<number> {
  const r = await db.session.updateMany({
    where: { userId, revokedAt: null, ...(exceptSessionId ? { id: { not: exceptSessionId } } : {}) },
    data: { revokedAt: new Date() },
  });
  return r.count;
}
