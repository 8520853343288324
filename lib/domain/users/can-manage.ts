import type { RealmTx } from '../../db/types';
import type { DomainContext } from '../../realm/context';
import { assertActorHoldsAllOf } from '../groups/grant-change-guard';

// The credential half of the no-escalation rule: with `user:write` alone one could set an
// administrator's password, or point their e-mail at one's own mailbox and reset it, and sign in as
// them. So changing, deactivating or deleting a user needs every Gatehouse permission that user
// holds, or would hold were their dormant groups woken (realm:admin holds all). Call it inside the
// transaction that writes: it takes the permission-graph lock and reads the users' groups and the
// caller's authority afresh, so a concurrent change of memberships cannot slip between.
export async function assertCanManageUsers(ctx: DomainContext, tx: RealmTx, userIds: readonly string[]): Promise<void> {
  await assertActorHoldsAllOf(
    ctx,
    tx,
    userIds.map((id) => ({ kind: 'user', id }) as const),
    'The user holds permissions you do not hold',
  );
}
