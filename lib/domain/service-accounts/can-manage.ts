import type { RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import type { DomainContext } from '../context';
import { conferredByGroups, missingPermissions } from '../groups/no-escalation';

// The service-account half of groups/no-escalation.ts. Whoever creates or rotates a credential
// holds its secret, and with it everything the account's groups confer; so every write on an
// account or its credentials needs every Gatehouse permission those groups confer, as changing a
// user needs what that user holds (users/can-manage.ts). Without it, `service-account:write` alone
// would mint a secret for an account in Administrators. Pass the groups the account is in and any
// it is about to join. BoundTo and IsActive are ignored on purpose: a dormant group can be woken
// and an inactive account reactivated.
export async function assertCanManageServiceAccount(ctx: DomainContext, db: RealmTx, groupIds: readonly string[]): Promise<void> {
  const missing = await missingPermissions(ctx, await conferredByGroups(db, groupIds));
  if (missing.length) throw new AppError('Auth.Forbidden', { detail: `The service account would hold permissions you do not hold: ${missing.join(', ')}.` });
}
