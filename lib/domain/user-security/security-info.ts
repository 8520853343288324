import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import type { RealmTx } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { gracePeriodActive, twoFactorRequired, type TwoFactorPolicy } from '../mfa/policy';
import { realmSettings } from '../realm-settings/realm-settings';
import { hasPassword } from '../users/password-presence';

// GET /api/admin/users/{id}/security-info (spec 4.7): what an administrator needs to help someone
// sign in, and nothing secret: which methods the user has, the effective 2FA requirement and the
// state of the secure-setup grace period. `TwoFactorRequired` is the effective value (the user's
// policy over the realm's setting); `GracePeriodActive` is true while the user must still set up a
// second factor and the deadline has not passed.
export type SecurityInfo = {
  HasPassword: boolean;
  TwoFactorEnabled: boolean;
  HasAuthenticator: boolean;
  PasskeyCount: number;
  TwoFactorPolicy: TwoFactorPolicy;
  TwoFactorRequired: boolean;
  SecureSetupDueAt: Date | null;
  GracePeriodActive: boolean;
  EmailConfirmed: boolean;
  LastLoginAt: Date | null;
};

export async function loadSecurityInfo(ctx: DomainContext, db: RealmTx, id: string): Promise<SecurityInfo> {
  const u = await db.user.findUnique({
    where: { id },
    select: {
      twoFactorEnabled: true,
      twoFactorPolicy: true,
      secureSetupDueAt: true,
      emailConfirmed: true,
      lastLoginAt: true,
      totp: { select: { confirmedAt: true } },
    },
  });
  if (!u) throw new AppError('User.NotFound');
  // Counted on its own: Prisma's `_count` of a relation counts every user's passkeys (a full scan).
  const passkeys = await db.passkey.count({ where: { userId: id } });
  const s = await realmSettings(ctx.realm);
  const required = twoFactorRequired(u.twoFactorPolicy, s.TwoFactor.Required);
  const secured = u.twoFactorEnabled || passkeys > 0;
  return {
    HasPassword: await hasPassword(db, id),
    TwoFactorEnabled: u.twoFactorEnabled,
    HasAuthenticator: Boolean(u.totp?.confirmedAt),
    PasskeyCount: passkeys,
    TwoFactorPolicy: (['Required', 'Exempt'].includes(u.twoFactorPolicy) ? u.twoFactorPolicy : 'Default') as TwoFactorPolicy,
    TwoFactorRequired: required,
    SecureSetupDueAt: u.secureSetupDueAt,
    GracePeriodActive: gracePeriodActive({ required, secured, dueAt: u.secureSetupDueAt }),
    EmailConfirmed: u.emailConfirmed,
    LastLoginAt: u.lastLoginAt,
  };
}

export async function securityInfo(ctx: DomainContext, id: string): Promise<SecurityInfo> {
  await requirePermission(ctx, 'user:write');
  return loadSecurityInfo(ctx, await realmDb(ctx.realm), id);
}
