import { randomToken } from '../../crypto/tokens';
import type { RealmTx } from '../../db/types';
import { endSignInsIn } from '../sessions/end-sign-ins';

// Taking a person's data out of a realm (spec 3.5). Two ends share the first step:
// - self-deletion masks the account: the row stays, holding only its id and placeholders, so what
//   refers to it (security-log entries, decisions on change requests, invite codes) stays consistent;
// - an administrator's permanent erasure deletes the row, and the database cascades the rest.
// Both run inside the caller's transaction, so the account is either untouched or wholly done.
// (Named in CREDENTIAL_MODULES: masking clears the password hash.)

/** Unreservable placeholders: no user name may contain a space, no address may lack a dot in its domain. */
export function placeholderUserName(userId: string): string {
  return `Deleted user ${userId}`;
}

export function placeholderEmail(userId: string): string {
  return `deleted-${userId}@invalid`;
}

export type LinkedRecordsRemoved = { engineRecords: number; browserSessions: number };

/**
 * What refers to the person without a database cascade, or keeps their name or address elsewhere:
 * the OAuth engine's grants, tokens, codes and sessions (every client session and its token family
 * ends), their one-time secrets (links and codes, also those mailed to their address before the
 * account existed), and the copy of their name and address on the admin invite they redeemed.
 * Browser sessions are revoked at once (they stop working); their rows, which hold addresses and
 * browsers, are deleted with the account (erasure) or once the deletion's archive is written.
 * `consumedSecretId`: the deletion link being redeemed stays, emptied, so a second click reads "used".
 */
export async function removeLinkedRecords(
  tx: RealmTx,
  user: { id: string; emailNormalized: string },
  consumedSecretId?: string,
): Promise<LinkedRecordsRemoved> {
  const { browserSessions, engineRecords } = await endSignInsIn(tx, user.id);
  await tx.oneTimeSecret.deleteMany({
    where: { OR: [{ userId: user.id }, { userId: null, email: user.emailNormalized }], ...(consumedSecretId ? { id: { not: consumedSecretId } } : {}) },
  });
  if (consumedSecretId) await tx.oneTimeSecret.updateMany({ where: { id: consumedSecretId }, data: { email: null, data: null } });
  await tx.pendingAdminInvite.updateMany({
    where: { userId: user.id },
    data: { userName: placeholderUserName(user.id), email: placeholderEmail(user.id), firstname: null, lastname: null },
  });
  return { engineRecords, browserSessions };
}

/**
 * Masks the account: credentials, second factors, linked identities, change requests and group
 * memberships go; the row keeps its id, with placeholders for the name and address, no password,
 * deleted, inactive, a new security stamp, and `anonymizedAt` set (it can never be restored).
 */
export async function maskAccount(tx: RealmTx, userId: string, now: Date): Promise<void> {
  await tx.passkey.deleteMany({ where: { userId } });
  await tx.totpAuthenticator.deleteMany({ where: { userId } });
  await tx.externalLink.deleteMany({ where: { userId } });
  await tx.userChangeRequest.deleteMany({ where: { userId } });
  await tx.groupMember.deleteMany({ where: { userId } });
  const userName = placeholderUserName(userId);
  const email = placeholderEmail(userId);
  await tx.user.update({
    where: { id: userId },
    data: {
      userName,
      userNameNormalized: userName.toLowerCase(),
      email,
      emailNormalized: email.toLowerCase(),
      emailConfirmed: false,
      firstname: null,
      lastname: null,
      acronym: null,
      passwordHash: null,
      isActive: false,
      deletedAt: now,
      anonymizedAt: now,
      securityStamp: randomToken(16),
      twoFactorEnabled: false,
      twoFactorPolicy: 'Default',
      secureSetupDueAt: null,
      lastLoginAt: null,
      updatedAt: now,
    },
    select: { id: true },
  });
}
