import { requirePermission } from '../../authz/require-permission';
import { getGlobalDb } from '../../db/global-db';
import { notFound } from '../../errors/app-error';
import { realmDb, type DomainContext } from '../../realm/context';

// The two logs of spec 4.7 "Logs": newest first, filtered by category, event type and a time
// window; the security log also by person. Neither can be cleared over the API (the retention job
// deletes only entries older than the configured days: lib/domain/audit/retention.ts).
export type LogQuery = { category?: string; eventType?: string; from?: Date; to?: Date; limit: number };
export type SecurityLogQuery = LogQuery & { userId?: string };

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
    where: {
      ...(q.category ? { category: q.category } : {}),
      ...(q.eventType ? { eventType: q.eventType } : {}),
      ...(q.from || q.to ? { createdAt: { ...(q.from ? { gte: q.from } : {}), ...(q.to ? { lte: q.to } : {}) } } : {}),
    },
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
    take: q.limit,
  };
}

/**
 * Entries by the person (they acted, or the entry names them as its person) and entries about them:
 * an administrator's change to their account is the administrator's entry, and its facts carry the
 * person's `userId` (lib/events/catalog.ts). The id is letters, digits and dashes (the query schema),
 * so it cannot carry a LIKE wildcard into the match on the facts.
 */
function byOrAbout(userId: string) {
  return { OR: [{ userId }, { detail: { contains: `"userId":"${userId}"` } }] };
}

function parseDetail(detail: string | null): unknown {
  if (!detail) return undefined;
  try {
    return JSON.parse(detail);
  } catch {
    return undefined;
  }
}

export async function readAuthLog(ctx: DomainContext, q: SecurityLogQuery): Promise<LogEntry[]> {
  await requirePermission(ctx, 'auth-log:read');
  const db = await realmDb(ctx.realm);
  const query = newestMatching(q);
  const rows = await db.authLogEvent.findMany({ ...query, where: { ...query.where, ...(q.userId ? byOrAbout(q.userId) : {}) } });
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
