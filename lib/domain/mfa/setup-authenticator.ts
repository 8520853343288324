import { seal } from '../../crypto/secret-box';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { enrollee } from './enrollee';
import { authenticatorUri, newTotpKey, qrCodeSvg } from './totp';

// POST /api/account/mfa/setup (spec 4.3): a new authenticator key, sealed at rest, unconfirmed
// until a code from it is verified. Calling it again before verifying replaces the unconfirmed key.
export type AuthenticatorSetup = { SharedKey: string; AuthenticatorUri: string; QrCodeSvg: string };

export async function setupAuthenticator(ctx: DomainContext, pendingToken: string | undefined): Promise<AuthenticatorSetup> {
  const { userId, pending } = await enrollee(ctx, pendingToken);
  const db = await realmDb(ctx.realm);
  const user = await db.user.findUnique({ where: { id: userId }, select: { userName: true, twoFactorEnabled: true } });
  if (!user) throw new AppError('Auth.Unauthenticated');
  if (user.twoFactorEnabled) throw new AppError('Mfa.AlreadyEnabled');
  const key = newTotpKey();
  const secretEncrypted = await seal(key);
  await db.totpAuthenticator.upsert({
    where: { userId },
    create: { userId, secretEncrypted, createdAt: new Date() },
    update: { secretEncrypted, confirmedAt: null, lastUsedStep: null, createdAt: new Date() },
  });
  await publish(eventFrom(ctx, 'auth.totp-setup-started', userId, { userId, userName: user.userName, setupOnly: Boolean(pending) }));
  const uri = authenticatorUri(ctx.realm.displayName, user.userName, key);
  return { SharedKey: key, AuthenticatorUri: uri, QrCodeSvg: await qrCodeSvg(uri) };
}
