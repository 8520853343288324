import { dummyPasswordHash, verifyPassword } from '../../auth/passwords';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { clearRate, limitRate } from '../realm-settings/rate-limit';
import { realmDb, type DomainContext } from '../context';
import { createSession } from '../sessions/repo';
import { normalizeEmail, normalizeUserName } from '../users/insert-user';

// POST /api/account/login (spec 4.1, 5.5). Unknown user, wrong password, inactive or deleted user
// all answer the same 401 after the same argon2 work, so the answer tells nothing about accounts.
export type LoginOutcome = { authenticated: true; userId: string; userName: string };

export async function passwordLogin(ctx: DomainContext, userName: string, password: string): Promise<LoginOutcome & { sessionToken: string }> {
  const target = userName.trim().toLowerCase();
  await limitRate(ctx, 'login', 'target', target);
  const db = await realmDb(ctx.realm);
  const user = await db.user.findFirst({
    where: { OR: [{ userNameNormalized: normalizeUserName(userName) }, { emailNormalized: normalizeEmail(userName) }] },
    select: { id: true, userName: true, passwordHash: true, isActive: true, deletedAt: true },
  });
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !user.passwordHash || !ok || !user.isActive || user.deletedAt) {
    await publish(eventFrom(ctx, 'auth.login-failed', user?.id, { success: false, userName: userName.slice(0, 128), reason: !user ? 'unknown-user' : !ok ? 'bad-password' : 'inactive' }));
    throw new AppError('Auth.InvalidCredentials');
  }
  await clearRate(ctx, 'login', 'target', target);
  const session = await createSession(db, { userId: user.id, amr: ['pwd'], ipAddress: ctx.ip, userAgent: ctx.userAgent });
  await db.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
  await publish(eventFrom({ ...ctx, actor: { kind: 'user', userId: user.id, userName: user.userName, sessionId: session.sessionId } }, 'auth.login-succeeded', user.id, { method: 'password' }));
  return { authenticated: true, userId: user.id, userName: user.userName, sessionToken: session.token };
}
