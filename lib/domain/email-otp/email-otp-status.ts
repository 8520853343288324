import { requireUser } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { realmDb, type DomainContext } from '../../realm/context';
import { flag } from '../flags/registry';
import { RealmFeatures } from '../realm-settings/features';

// GET /api/account/email-otp/status (spec 4.3): there is nothing to enrol — a person signs in with a
// code mailed to their address whenever the realm allows it. `Enabled` is the realm's setting.
export type EmailOtpStatus = { Enabled: boolean; Email: string; EmailConfirmed: boolean };

export async function emailOtpStatus(ctx: DomainContext): Promise<EmailOtpStatus> {
  const actor = requireUser(ctx);
  const db = await realmDb(ctx.realm);
  const user = await db.user.findUnique({ where: { id: actor.userId }, select: { email: true, emailConfirmed: true } });
  if (!user) throw new AppError('Auth.Unauthenticated');
  return { Enabled: await flag(ctx, RealmFeatures.EmailOtp), Email: user.email, EmailConfirmed: user.emailConfirmed };
}
