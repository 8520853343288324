import { lockForTransaction } from '../../db/advisory-lock';
import type { RealmDb, RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import type { RealmRecord } from '../../realm/realm-record';
import { flag } from '../flags/registry';
import { RealmEntitlements } from './realm-entitlements';

// Enforcing the realm's entitlements where they apply. Each check runs inside the transaction that
// creates the row, counting live rows there, so what is counted is what the insert joins.

/** 409 Entitlement.Exceeded when `adding` more live (not deleted) users would pass MaxUsers. */
export async function assertUserCapacity(tx: RealmTx, realm: RealmRecord, adding = 1): Promise<void> {
  const max = await flag({ realm }, RealmEntitlements.MaxUsers);
  if (max === null) return;
  // Two creates at the last free place must not both see it free: counted under a lock held to commit.
  await lockForTransaction(tx, `gatehouse.entitlement.users.${realm.id}`);
  const count = await tx.user.count({ where: { deletedAt: null } });
  if (count + adding > max)
    throw new AppError('Entitlement.Exceeded', {
      detail: `This realm may hold at most ${max} users.`,
      extensions: { entitlement: 'RealmEntitlements/MaxUsers', limit: max },
    });
}

/**
 * 409 Entitlement.Exceeded when the realm already holds MaxOAuthClients OAuth clients: the ones made
 * by an administrator or by dynamic registration. The clients behind service-account credentials are
 * credentials, not OAuth clients of the realm's own, and do not count.
 */
export async function assertClientCapacity(tx: RealmTx | RealmDb, realm: RealmRecord): Promise<void> {
  const max = await flag({ realm }, RealmEntitlements.MaxOAuthClients);
  if (max === null) return;
  // As for users; on the registration pre-check (no transaction) the lock is released at once.
  await lockForTransaction(tx, `gatehouse.entitlement.clients.${realm.id}`);
  const count = await tx.oAuthClient.count({ where: { serviceAccountId: null } });
  if (count >= max) {
    throw new AppError('Entitlement.Exceeded', {
      detail: `This realm may hold at most ${max} OAuth clients.`,
      extensions: { entitlement: 'RealmEntitlements/MaxOAuthClients', limit: max },
    });
  }
}
