import { requirePermission } from '../../authz/require-permission';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { endSignInsIn } from '../sessions/end-sign-ins';
import { listSessionsOf, type SessionsOf } from '../sessions/list-sessions';
import { assertCanManageUsers } from '../users/can-manage';
import { requireUserRecord } from '../users/repo';

// A person's sessions as administrators see and end them (spec 4.7 "User administration"), the same
// lists the person reads at GET /api/auth/sessions.

/** GET /api/admin/users/{id}/sessions (session:read): browser and native/OAuth client sessions. */
export async function listUserSessions(ctx: DomainContext, id: string): Promise<SessionsOf> {
  await requirePermission(ctx, 'session:read');
  const db = await realmDb(ctx.realm);
  await requireUserRecord(db, id);
  // IsCurrent marks the caller's own session when administrators look at themselves.
  return listSessionsOf(db, id, ctx.actor.kind === 'user' && ctx.actor.userId === id ? ctx.actor.sessionId : null);
}

/**
 * DELETE /api/admin/users/{id}/sessions (session:write): force logout. Every browser session ends,
 * and every OAuth client session with its token family (grants, refresh and access tokens, codes),
 * as when the person signs out everywhere. Signing out someone who holds more than the caller (an
 * administrator, repeatedly) is refused like any other change to them (no escalation), in the
 * transaction that revokes.
 */
export async function revokeUserSessionsByAdmin(ctx: DomainContext, id: string): Promise<void> {
  await requirePermission(ctx, 'session:write');
  const db = await realmDb(ctx.realm);
  await requireUserRecord(db, id);
  const ended = await db.$transaction(async (tx) => {
    await assertCanManageUsers(ctx, tx, [id]);
    return endSignInsIn(tx, id);
  });
  await publish(eventFrom(ctx, 'user.sessions-revoked', id, { userId: id, ...ended }));
}
