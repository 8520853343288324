import { requireUser } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { lockUserRow, remainingSignInMethods } from '../users/sign-in-methods';

/**
 * DELETE /api/account/passkey/{id}: removes one of the signed-in user's passkeys. Refused with
 * Idp.LastAuthMethod when it is the user's last way to sign in (spec 3.6: no password, no other
 * passkey, no external link). A passkey of an old RP ID (invalid, spec 2.1) is not a way to sign in
 * and never blocks.
 */
export async function deleteOwnPasskey(ctx: DomainContext, passkeyId: string): Promise<void> {
  const actor = requireUser(ctx);
  const db = await realmDb(ctx.realm);
  const rpId = ctx.realm.primaryDomain;
  await db.$transaction(async (tx) => {
    await lockUserRow(tx, actor.userId);
    const passkey = await tx.passkey.findFirst({ where: { id: passkeyId, userId: actor.userId }, select: { id: true, rpId: true } });
    if (!passkey) throw new AppError('Passkey.NotFound');
    if (passkey.rpId === rpId && (await remainingSignInMethods(tx, actor.userId, rpId, { passkeyId: passkey.id })) === 0) {
      throw new AppError('Idp.LastAuthMethod', { detail: 'This passkey is your only way to sign in. Set a password or add another passkey first.' });
    }
    await tx.passkey.delete({ where: { id: passkey.id } });
  });
  await publish(eventFrom(ctx, 'auth.passkey-removed', actor.userId, { passkeyId }));
}
