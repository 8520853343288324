import { parseStringList } from '../../db/json-list';
import type { RealmDb } from '../../db/types';
import { listClientSessions, type ClientSessionDto } from './client-sessions';

// A person's live sessions as GET /api/auth/sessions answers them (spec 4.6): browser sessions, newest
// use first, and native/OAuth client sessions. The person themselves and an administrator (GET
// /api/admin/users/{id}/sessions) read the same list; `IsCurrent` marks the caller's own session.
export type BrowserSessionDto = {
  Id: string;
  IsCurrent: boolean;
  CreatedAt: Date;
  LastSeenAt: Date;
  ExpiresAt: Date;
  IpAddress?: string;
  UserAgent?: string;
  Methods: string[];
};
export type SessionsOf = { Sessions: BrowserSessionDto[]; ClientSessions: ClientSessionDto[] };

export async function listSessionsOf(db: RealmDb, userId: string, currentSessionId: string | null | undefined): Promise<SessionsOf> {
  const now = new Date();
  const [rows, clients] = await Promise.all([
    db.session.findMany({ where: { userId, revokedAt: null, expiresAt: { gt: now } }, orderBy: { lastSeenAt: 'desc' } }),
    listClientSessions(db, userId),
  ]);
  return {
    Sessions: rows.map((r) => ({
      Id: r.id,
      IsCurrent: r.id === currentSessionId,
      CreatedAt: r.createdAt,
      LastSeenAt: r.lastSeenAt,
      ExpiresAt: r.expiresAt,
      ...(r.ipAddress ? { IpAddress: r.ipAddress } : {}),
      ...(r.userAgent ? { UserAgent: r.userAgent } : {}),
      Methods: parseStringList(r.amr),
    })),
    ClientSessions: clients,
  };
}
