import { requirePermission } from '../../authz/require-permission';
import { onUniqueViolation } from '../../db/errors';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { patchFlag, patchKey, patchText, sentFields } from '../merge-patch';
import { endSignInsIn } from '../sessions/end-sign-ins';
import { assertCanManageUsers } from './can-manage';
import { assertNotSelf } from './guard-rails';
import { normalizeEmail, normalizeUserName } from './insert-user';
import { assertAdministratorsRemain } from '../groups/last-administrator';
import { assertIdentityFree } from './identity-uniqueness';
import { requireLiveUserRow, requireUserRow, type UserRow } from './repo';
import type { UpdateUserInput } from './schemas';

// PUT /api/user/{id}: merge-patch (spec 4.9). UserName and Email are natural keys (null or blank =
// unchanged); Firstname, Lastname and Acronym clear with null or ""; IsActive and EmailConfirmed
// are only set with true or false. A new e-mail address is unconfirmed unless the admin says so.
export async function updateUser(ctx: DomainContext, id: string, patch: UpdateUserInput): Promise<UserRow> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  const current = await requireLiveUserRow(db, id);

  const userName = patchKey(patch.UserName);
  const email = patchKey(patch.Email);
  const isActive = patchFlag(patch.IsActive);
  const userNameChanged = userName !== undefined && normalizeUserName(userName) !== normalizeUserName(current.userName);
  const emailChanged = email !== undefined && normalizeEmail(email) !== normalizeEmail(current.email);
  const deactivating = isActive === false && current.isActive;
  if (deactivating) assertNotSelf(ctx, [id]);

  await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        await assertCanManageUsers(ctx, tx, [id]);
        if (deactivating) await assertAdministratorsRemain(tx, { removedUserIds: [id] });
        await assertIdentityFree(tx, { userName: userNameChanged ? userName : undefined, email: emailChanged ? email : undefined }, id);
        await tx.user.update({
          where: { id },
          data: {
            userName,
            userNameNormalized: userName === undefined ? undefined : normalizeUserName(userName),
            email,
            emailNormalized: email === undefined ? undefined : normalizeEmail(email),
            emailConfirmed: patchFlag(patch.EmailConfirmed) ?? (emailChanged ? false : undefined),
            firstname: patchText(patch.Firstname),
            lastname: patchText(patch.Lastname),
            acronym: patchText(patch.Acronym),
            isActive,
            updatedAt: new Date(),
          },
        });
        // An inactive user cannot sign in; every sign-in they hold ends with the same commit (as PUT …/active).
        if (deactivating) await endSignInsIn(tx, id);
      }),
    'User.UserNameTaken',
    { email: 'User.EmailTaken' },
  );
  await publish(eventFrom(ctx, 'user.updated', id, { userId: id, changed: sentFields(patch) }));
  if (isActive !== undefined && isActive !== current.isActive) {
    await publish(eventFrom(ctx, isActive ? 'user.activated' : 'user.deactivated', id, { userId: id }));
  }
  return requireUserRow(db, id);
}
