import { requirePermission } from '../../authz/require-permission';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import type { TwoFactorPolicy } from '../mfa/policy';
import { assertCanManageUsers } from '../users/can-manage';
import { requireLiveUserRow } from '../users/repo';
import { loadSecurityInfo, type SecurityInfo } from './security-info';

// The secure-setup grace period of one user (spec 4.7 "User administration", 5.5). Each change
// needs user:write and every permission the user holds (no escalation: exempting an administrator
// from 2FA, or extending their deadline, weakens their account).

/** PUT /api/admin/users/{id}/grace/policy: Default (the realm decides), Required or Exempt. */
export async function setTwoFactorPolicy(ctx: DomainContext, id: string, policy: TwoFactorPolicy): Promise<SecurityInfo> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  await requireLiveUserRow(db, id);
  const before = await db.$transaction(async (tx) => {
    await assertCanManageUsers(ctx, tx, [id]);
    const row = await tx.user.findUniqueOrThrow({ where: { id }, select: { twoFactorPolicy: true } });
    if (row.twoFactorPolicy !== policy) await tx.user.update({ where: { id }, data: { twoFactorPolicy: policy, updatedAt: new Date() } });
    return row;
  });
  if (before.twoFactorPolicy !== policy) {
    await publish(eventFrom(ctx, 'user.two-factor-policy-changed', id, { userId: id, from: before.twoFactorPolicy, to: policy }));
  }
  return loadSecurityInfo(ctx, db, id);
}
