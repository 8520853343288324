import { newId, randomToken } from '../../crypto/tokens';
import type { RealmTx } from '../../db/types';
import type { RealmRecord } from '../../realm/realm-record';
import { assertUserCapacity } from '../entitlements/capacity';
import { normalizeEmail, normalizeUserName } from './identifiers';
import { assertIdentityFree } from './identity-uniqueness';

export { normalizeEmail, normalizeUserName };

// The one place a user row is created, so every path (admin API, bootstrap, registration, JIT, CLI)
// stores the same normalised copies, takes no identifier another person holds (409
// User.UserNameTaken / User.EmailTaken, identity-uniqueness.ts) and meets the realm's MaxUsers
// entitlement (409 Entitlement.Exceeded), both checked inside the creating transaction.
export type NewUser = {
  userName: string;
  email: string;
  firstname?: string | null;
  lastname?: string | null;
  acronym?: string | null;
  passwordHash?: string | null;
  isActive?: boolean;
  emailConfirmed?: boolean;
};

/**
 * `limitedBy`: the realm whose MaxUsers applies. `'first-administrator'` only for the realm's first
 * administrator and its recovery (spec 3.3), which must be able to open a realm that is at its limit.
 */
export async function insertUser(tx: RealmTx, limitedBy: RealmRecord | 'first-administrator', input: NewUser): Promise<{ id: string }> {
  await assertIdentityFree(tx, { userName: input.userName, email: input.email });
  if (limitedBy !== 'first-administrator') await assertUserCapacity(tx, limitedBy);
  return tx.user.create({
    data: {
      id: newId(),
      userName: input.userName.trim(),
      userNameNormalized: normalizeUserName(input.userName),
      email: input.email.trim(),
      emailNormalized: normalizeEmail(input.email),
      emailConfirmed: input.emailConfirmed ?? false,
      firstname: input.firstname ?? null,
      lastname: input.lastname ?? null,
      acronym: input.acronym ?? null,
      passwordHash: input.passwordHash ?? null,
      isActive: input.isActive ?? true,
      securityStamp: randomToken(16),
    },
    select: { id: true },
  });
}
