import { requireUser } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { profileEmailMail } from '../../mail/templates/profile-email';
import { realmMail } from '../../mail/templates/realm-mail';
import { realmDb, type DomainContext } from '../context';
import { deliverAccountMail } from '../email-verification/deliver-account-mail';
import { tokenLink } from '../email-verification/verification-link';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { secretPurposes } from '../one-time-secrets/purposes';
import { limitRate } from '../realm-settings/rate-limit';
import { assertIdentityFree } from '../users/repo';
import { diffProfile } from './changes';
import { findPendingRequest, lockUserRow, requestColumns, retireProfileEmailLinks, toRequestDto } from './repo';
import type { ChangeRequestDto, ProfileRequestInput } from './schemas';

// PUT /api/account/profile/request (spec 3.4): users never write their profile; they ask. Only
// fields that differ count. A new address must be free and must prove itself first: the request
// waits for the link mailed to it (202); a name or acronym change goes straight to the
// administrators (200). One pending request per user.
export async function submitProfileRequest(ctx: DomainContext, input: ProfileRequestInput): Promise<{ request: ChangeRequestDto; awaitingEmail: boolean }> {
  const actor = requireUser(ctx);
  await limitRate(ctx, 'profile-request', 'target', actor.userId);
  const db = await realmDb(ctx.realm);
  const user = await db.user.findUnique({ where: { id: actor.userId }, select: { id: true, firstname: true, lastname: true, acronym: true, email: true } });
  if (!user) throw new AppError('Auth.Unauthenticated');
  const changes = diffProfile(user, input);
  if (Object.keys(changes).length === 0) throw new AppError('ChangeRequest.Empty');

  const newEmail = changes.Email;
  const id = newId();
  let link: { secretId: string; url: string } | undefined;
  const row = await db.$transaction(async (tx) => {
      await lockUserRow(tx, user.id);
      if (await findPendingRequest(tx, user.id)) throw new AppError('ChangeRequest.AlreadyOpen');
      let expiresAt: Date | null = null;
      if (newEmail) {
        await assertIdentityFree(tx, { email: newEmail }, user.id);
        const issued = await issueSecret(tx, { purpose: 'profile-email', userId: user.id, email: newEmail, data: { requestId: id }, replacePrevious: true });
        link = { secretId: issued.id, url: tokenLink(ctx.realm, '/verify-profile-email', issued.secret) };
        expiresAt = issued.expiresAt;
      }
      return tx.userChangeRequest.create({
        data: {
          id,
          userId: user.id,
          status: newEmail ? 'AwaitingEmailVerification' : 'Open',
          changes: JSON.stringify(changes),
          newEmail: newEmail ?? null,
          emailTokenExpiresAt: expiresAt,
          createdAt: new Date(),
        },
        select: requestColumns,
      });
    });

  if (newEmail && link) {
    const { url, secretId } = link;
    const lifetimeMinutes = secretPurposes['profile-email'].ttlMinutes;
    const message = await realmMail(ctx, newEmail, (branding) => profileEmailMail(branding, { url, lifetimeMinutes }));
    if (!(await deliverAccountMail(ctx, message, { purpose: 'profile-email', userId: user.id, requestId: id }))) {
      // The new mailbox never got its link: undo the request so the user can simply try again.
      await db.$transaction(async (tx) => {
        await tx.oneTimeSecret.updateMany({ where: { id: secretId, usedAt: null }, data: { usedAt: new Date() } });
        await retireProfileEmailLinks(tx, user.id);
        await tx.userChangeRequest.deleteMany({ where: { id, status: 'AwaitingEmailVerification' } });
      });
      throw new AppError('Mail.SendFailed');
    }
  }
  await publish(eventFrom(ctx, 'user.change-requested', id, { userId: user.id, requestId: id, fields: Object.keys(changes), status: row.status }));
  return { request: toRequestDto(row), awaitingEmail: Boolean(newEmail) };
}
