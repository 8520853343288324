import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { revokeSession } from '../sessions/repo';

/** POST /api/account/logout: the browser session is revoked server-side, not just forgotten. */
export async function logout(ctx: DomainContext): Promise<void> {
  if (ctx.actor.kind !== 'user' || !ctx.actor.sessionId) return;
  await revokeSession(await realmDb(ctx.realm), ctx.actor.sessionId);
  await publish(eventFrom(ctx, 'auth.logout', ctx.actor.userId));
}
