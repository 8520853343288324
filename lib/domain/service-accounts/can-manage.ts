import type { RealmTx } from '../../db/types';
import type { DomainContext } from '../../realm/context';
import { assertActorHoldsAllOf } from '../groups/grant-change-guard';

// The service-account half of users/can-manage.ts. Whoever creates or rotates a credential holds
// its secret, and with it everything the account's groups confer; so every write on an account or
// its credentials needs every Gatehouse permission those groups confer, as changing a user needs
// what that user holds. Without it, `service-account:write` alone would mint a secret for an
// account in Administrators. BoundTo and IsActive are ignored on purpose: a dormant group can be
// woken and an inactive account reactivated. Call it inside the transaction that writes: it takes
// the permission-graph lock and reads the account's groups and the caller's authority afresh.
export async function assertCanManageServiceAccount(ctx: DomainContext, tx: RealmTx, serviceAccountId: string): Promise<void> {
  await assertActorHoldsAllOf(ctx, tx, [{ kind: 'service-account', id: serviceAccountId }], 'The service account holds permissions you do not hold');
}
