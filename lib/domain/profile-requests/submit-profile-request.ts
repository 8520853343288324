import { requireUser } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { profileEmailMail } from '../../mail/templates/profile-email';
import { profileEmailTakenMail } from '../../mail/templates/profile-email-taken';
import { realmMail } from '../realm-mail/realm-mail';
import { withUniformDuration } from '../anti-enumeration/uniform-duration';
import { realmDb, type DomainContext } from '../../realm/context';
import { deliverAccountMail } from '../email-verification/deliver-account-mail';
import { tokenLink } from '../email-verification/verification-link';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { secretPurposes } from '../one-time-secrets/purposes';
import { limitRate } from '../realm-settings/rate-limit';
import { isEmailTaken } from '../users/identity-uniqueness';
import { diffProfile } from './changes';
import { findPendingRequest, lockUserRow, requestColumns, retireProfileEmailLinks, toRequestDto } from './repo';
import type { ChangeRequestDto, ProfileRequestInput } from './schemas';

// PUT /api/account/profile/request (spec 3.4): users never write their profile; they ask. Only
// fields that differ count. A new address must prove itself first: the request waits for the link
// mailed to it (202); a name or acronym change goes straight to the administrators (200). One
// pending request per user.
//
// Anti-enumeration (issue 8 item 12): an address another account holds gets the same 202 and the
// same waiting request, padded to the same duration (anti-enumeration/uniform-duration.ts), so a
// signed-in person cannot probe which addresses have accounts. That mailbox gets a message saying
// the address is taken instead of a link; the request waits until it expires or is cancelled.
export async function submitProfileRequest(ctx: DomainContext, input: ProfileRequestInput): Promise<{ request: ChangeRequestDto; awaitingEmail: boolean }> {
  const actor = requireUser(ctx);
  await limitRate(ctx, 'profile-request', 'target', actor.userId);
  const db = await realmDb(ctx.realm);
  const user = await db.user.findUnique({ where: { id: actor.userId }, select: { id: true, firstname: true, lastname: true, acronym: true, email: true } });
  if (!user) throw new AppError('Auth.Unauthenticated');
  const changes = diffProfile(user, input);
  if (Object.keys(changes).length === 0) throw new AppError('ChangeRequest.Empty');
  const newEmail = changes.Email;
  const request = newEmail
    ? await withUniformDuration('profile-email-request', () => submit(ctx, db, user.id, changes, newEmail))
    : (await submit(ctx, db, user.id, changes, null)).value;
  return { request, awaitingEmail: Boolean(newEmail) };
}

type Db = Awaited<ReturnType<typeof realmDb>>;

async function submit(
  ctx: DomainContext,
  db: Db,
  userId: string,
  changes: ReturnType<typeof diffProfile>,
  newEmail: string | null,
): Promise<{ value: ChangeRequestDto; real: boolean }> {
  const id = newId();
  const { row, link, taken } = await db.$transaction(async (tx) => {
    await lockUserRow(tx, userId);
    if (await findPendingRequest(tx, userId)) throw new AppError('ChangeRequest.AlreadyOpen');
    const taken = newEmail !== null && (await isEmailTaken(tx, newEmail, userId));
    let link: { secretId: string; url: string } | undefined;
    let expiresAt: Date | null = null;
    if (newEmail && !taken) {
      const issued = await issueSecret(tx, { purpose: 'profile-email', userId, email: newEmail, data: { requestId: id }, replacePrevious: true });
      link = { secretId: issued.id, url: tokenLink(ctx.realm, '/verify-profile-email', issued.secret) };
      expiresAt = issued.expiresAt;
    } else if (newEmail) {
      // The lifetime a link would have: the waiting request looks the same, and expires the same.
      expiresAt = new Date(Date.now() + secretPurposes['profile-email'].ttlMinutes * 60_000);
    }
    const row = await tx.userChangeRequest.create({
      data: {
        id,
        userId,
        status: newEmail ? 'AwaitingEmailVerification' : 'Open',
        changes: JSON.stringify(changes),
        newEmail,
        emailTokenExpiresAt: expiresAt,
        createdAt: new Date(),
      },
      select: requestColumns,
    });
    return { row, link, taken };
  });

  if (newEmail) {
    const lifetimeMinutes = secretPurposes['profile-email'].ttlMinutes;
    const message = await realmMail(ctx, newEmail, (branding) =>
      link ? profileEmailMail(branding, { url: link.url, lifetimeMinutes }) : profileEmailTakenMail(branding),
    );
    if (!(await deliverAccountMail(ctx, message, { purpose: taken ? 'profile-email-taken' : 'profile-email', userId, requestId: id }))) {
      // The new mailbox never got its message: undo the request so the user can simply try again.
      await db.$transaction(async (tx) => {
        if (link) await tx.oneTimeSecret.updateMany({ where: { id: link.secretId, usedAt: null }, data: { usedAt: new Date() } });
        await retireProfileEmailLinks(tx, userId);
        await tx.userChangeRequest.deleteMany({ where: { id, status: 'AwaitingEmailVerification' } });
      });
      throw new AppError('Mail.SendFailed');
    }
  }
  await publish(
    eventFrom(ctx, 'user.change-requested', id, {
      userId,
      requestId: id,
      fields: Object.keys(changes),
      status: row.status,
      ...(taken ? { addressTaken: true } : {}),
    }),
  );
  return { value: toRequestDto(row), real: !taken };
}
