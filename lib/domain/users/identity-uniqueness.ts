import { lockForTransaction } from '../../db/advisory-lock';
import type { RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { normalizeEmail, normalizeUserName } from './identifiers';

// One sign-in name must never match two people (issue 30 item 5). Password sign-in, passkey
// sign-in by name, forgot-password and the JIT e-mail code accept either the user name or the
// e-mail (CONTRACT.md), so no identifier of one person may equal an identifier of another: a user
// name may not be another person's user name or e-mail, an e-mail not another person's e-mail or
// user name, compared on the stored lower-case copies. Deleted users keep theirs until erased, so a
// restore can never clash. Every path that writes a user name or an e-mail checks here, inside the
// transaction that writes it (insertUser for every new row; the admin API's update, an approved
// change request and an external sign-in's UserUpdateScript for changes). The unique indexes
// cover the same column; the cross-column case has no index, so on PostgreSQL each identifier is
// locked (an advisory lock held to commit) before it is looked up: two transactions writing the
// same name into different columns wait for each other. SQLite runs one write transaction at a time.

export type Identity = { userName?: string; email?: string };

/** Which of the identifiers another person already holds (deleted people included), or null. */
export type IdentityClash = { field: 'UserName' | 'Email'; deleted: boolean };

async function holder(tx: RealmTx, normalized: string, exceptId: string | undefined): Promise<{ deletedAt: Date | null } | null> {
  return tx.user.findFirst({
    where: { ...(exceptId ? { id: { not: exceptId } } : {}), OR: [{ userNameNormalized: normalized }, { emailNormalized: normalized }] },
    select: { deletedAt: true },
  });
}

/**
 * The first identifier of `identity` that someone other than `exceptId` holds, as user name or as
 * e-mail; null when both are free. Call it inside the writing transaction.
 */
export async function identityClash(tx: RealmTx, identity: Identity, exceptId?: string): Promise<IdentityClash | null> {
  const wanted = [
    ...(identity.userName !== undefined ? [{ field: 'UserName' as const, normalized: normalizeUserName(identity.userName) }] : []),
    ...(identity.email !== undefined ? [{ field: 'Email' as const, normalized: normalizeEmail(identity.email) }] : []),
  ];
  // Locks in one order, so two writers of the same pair cannot wait for each other.
  for (const name of [...new Set(wanted.map((w) => w.normalized))].sort()) await lockForTransaction(tx, `gatehouse.identity.${name}`);
  for (const w of wanted) {
    const found = await holder(tx, w.normalized, exceptId);
    if (found) return { field: w.field, deleted: found.deletedAt !== null };
  }
  return null;
}

/** True when another person (deleted ones included) holds `email` as address or user name. */
export async function isEmailTaken(tx: RealmTx, email: string, exceptId?: string): Promise<boolean> {
  return (await identityClash(tx, { email }, exceptId)) !== null;
}

/** 409 User.UserNameTaken or User.EmailTaken when another person holds one of the identifiers. */
export async function assertIdentityFree(tx: RealmTx, identity: Identity, exceptId?: string): Promise<void> {
  const clash = await identityClash(tx, identity, exceptId);
  if (!clash) return;
  if (clash.field === 'UserName')
    throw new AppError('User.UserNameTaken', { detail: clash.deleted ? 'A deleted user holds this name; restore or erase it.' : undefined });
  throw new AppError('User.EmailTaken', { detail: clash.deleted ? 'A deleted user holds this address; restore or erase it.' : undefined });
}
