import { requireUser } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';

/**
 * DELETE /api/account/passkey/{id}: removes one of the signed-in user's passkeys. Refused with 409
 * Idp.LastAuthMethod when it is the user's last way to sign in (spec 3.6: no password, no other
 * passkey, no external link). External links have no storage yet; when they arrive, count them
 * here too. A passkey of an old RP ID (invalid, spec 2.1) is not a way to sign in and never blocks.
 */
export async function deleteOwnPasskey(ctx: DomainContext, passkeyId: string): Promise<void> {
  const actor = requireUser(ctx);
  const db = await realmDb(ctx.realm);
  const rpId = ctx.realm.primaryDomain;
  await db.$transaction(async (tx) => {
    // Lock the user's row first (a no-op write): two removals of someone's last two passkeys run
    // one after the other, so the second sees that the first left only one.
    await tx.$executeRaw`UPDATE "User" SET "securityStamp" = "securityStamp" WHERE "id" = ${actor.userId}`;
    const passkey = await tx.passkey.findFirst({ where: { id: passkeyId, userId: actor.userId }, select: { id: true, rpId: true } });
    if (!passkey) throw new AppError('Passkey.NotFound');
    if (passkey.rpId === rpId) {
      const user = await tx.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { passwordHash: true } });
      const others = await tx.passkey.count({ where: { userId: actor.userId, rpId, id: { not: passkey.id } } });
      if (!user.passwordHash && others === 0) {
        throw new AppError('Idp.LastAuthMethod', { detail: 'This passkey is your only way to sign in. Set a password or add another passkey first.' });
      }
    }
    await tx.passkey.delete({ where: { id: passkey.id } });
  });
  await publish(eventFrom(ctx, 'auth.passkey-removed', actor.userId, { passkeyId }));
}
