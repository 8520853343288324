import { requireUser } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { revokeClientSession } from './client-sessions';
import { endSignIns } from './end-sign-ins';
import { listSessionsOf, type SessionsOf } from './list-sessions';
import { revokeSession, revokeUserSessions } from './repo';

// The signed-in person's sessions (spec 4.6): browser sessions (the hosted pages and the OAuth
// engine share them) and native/OAuth client sessions. "Sign out everywhere" ends all of both.
export type MySessions = SessionsOf;

export async function listMySessions(ctx: DomainContext): Promise<MySessions> {
  const me = requireUser(ctx);
  return listSessionsOf(await realmDb(ctx.realm), me.userId, me.sessionId);
}

/** DELETE /api/auth/sessions/{id}: another browser session of the caller (the current one: log out). */
export async function revokeMyBrowserSession(ctx: DomainContext, sessionId: string): Promise<void> {
  const me = requireUser(ctx);
  const db = await realmDb(ctx.realm);
  const session = await db.session.findUnique({ where: { id: sessionId }, select: { userId: true, revokedAt: true } });
  if (!session || session.userId !== me.userId || session.revokedAt) throw new AppError('Session.NotFound');
  if (sessionId === me.sessionId) throw new AppError('Session.IsCurrent');
  await revokeSession(db, sessionId);
  await publish(eventFrom(ctx, 'auth.session-revoked', me.userId, { sessionId }));
}

export async function revokeMyClientSession(ctx: DomainContext, grantId: string): Promise<void> {
  const me = requireUser(ctx);
  if (!(await revokeClientSession(await realmDb(ctx.realm), me.userId, grantId))) throw new AppError('Session.NotFound');
  await publish(eventFrom(ctx, 'auth.client-session-revoked', me.userId, { grantId }));
}

export async function revokeMyOtherSessions(ctx: DomainContext): Promise<number> {
  const me = requireUser(ctx);
  const count = await revokeUserSessions(await realmDb(ctx.realm), me.userId, me.sessionId ?? undefined);
  await publish(eventFrom(ctx, 'auth.other-sessions-revoked', me.userId, { count }));
  return count;
}

/** DELETE /api/auth/sessions: every browser session (the current one too) and every client session. */
export async function signOutEverywhere(ctx: DomainContext): Promise<void> {
  const me = requireUser(ctx);
  const ended = await endSignIns(await realmDb(ctx.realm), me.userId);
  await publish(eventFrom(ctx, 'auth.signed-out-everywhere', me.userId, ended));
}
