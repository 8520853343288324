import { newId, randomToken } from '../../crypto/tokens';
import type { RealmTx } from '../../db/types';

// The one place a user row is created, so every path (admin API, bootstrap, registration, CLI)
// stores the same normalised copies.
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

export function normalizeUserName(userName: string): string {
  return userName.trim().toLowerCase();
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function insertUser(tx: RealmTx, input: NewUser): Promise<{ id: string }> {
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
