import { requirePermission } from '../../authz/require-permission';
import { getGlobalDb } from '../../db/global-db';
import { notFound } from '../../errors/app-error';
import { realmDb, type DomainContext } from '../../realm/context';

// The two logs of spec 4.7 "Logs": newest first, filtered by category and event type. Neither can
// be cleared over the API.
export type LogQuery = { category?: string; eventType?: string; limit: number };

export type LogEntry = {
  Id: string;
  CreatedAt: Date;
  Category: string;
  EventType: string;
  Success?: boolean;
  UserId?: string | null;
  UserName?: string | null;
  IpAddress?: string | null;
  UserAgent?: string | null;
  RealmSlug?: string | null;
  ActorId?: string | null;
  ActorRealm?: string | null;
  TargetId?: string | null;
  Detail?: unknown;
};

/** The query both logs answer: the newest `limit` entries of the category and event type asked for. */
function newestMatching(q: LogQuery) {
  return {
    where: { ...(q.category ? { category: q.category } : {}), ...(q.eventType ? { eventType: q.eventType } : {}) },
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
    take: q.limit,
  };
}

function parseDetail(detail: string | null): unknown {
  if (!detail) return undefined;
  try {
    return JSON.parse(detail);
  } catch {
    return undefined;
  }
}

export async function readAuthLog(ctx: DomainContext, q: LogQuery): Promise<LogEntry[]> {
  await requirePermission(ctx, 'auth-log:read');
  const db = await realmDb(ctx.realm);
  const rows = await db.authLogEvent.findMany(newestMatching(q));
  return rows.map((r) => ({
    Id: r.id,
    CreatedAt: r.createdAt,
    Category: r.category,
    EventType: r.eventType,
    Success: r.success,
    UserId: r.userId,
    UserName: r.userName,
    IpAddress: r.ipAddress,
    UserAgent: r.userAgent,
    Detail: parseDetail(r.detail),
  }));
}

export async function readPlatformAudit(ctx: DomainContext, q: LogQuery): Promise<LogEntry[]> {
  if (!ctx.realm.isControlPlane) throw notFound();
  await requirePermission(ctx, 'control-plane:platform-audit:read', 'control-plane');
  const db = await getGlobalDb();
  const rows = await db.platformAuditEvent.findMany(newestMatching(q));
  return rows.map((r) => ({
    Id: r.id,
    CreatedAt: r.createdAt,
    Category: r.category,
    EventType: r.eventType,
    RealmSlug: r.realmSlug,
    ActorId: r.actorId,
    ActorRealm: r.actorRealm,
    TargetId: r.targetId,
    Detail: parseDetail(r.detail),
  }));
}
