import { requireUser } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { realmDb, type DomainContext } from '../../realm/context';

// GET /api/account/mfa/status (spec 4.3): lower-case, as the spec writes it (CONTRACT.md).
export type TwoFactorStatus = { enabled: boolean; hasAuthenticator: boolean };

export async function twoFactorStatus(ctx: DomainContext): Promise<TwoFactorStatus> {
  const actor = requireUser(ctx);
  const db = await realmDb(ctx.realm);
  const user = await db.user.findUnique({ where: { id: actor.userId }, select: { twoFactorEnabled: true, totp: { select: { confirmedAt: true } } } });
  if (!user) throw new AppError('Auth.Unauthenticated');
  return { enabled: user.twoFactorEnabled, hasAuthenticator: Boolean(user.totp?.confirmedAt) };
}
