import { requirePermission } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { onUniqueViolation } from '../../db/errors';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { optionalText, patchList } from '../merge-patch';
import { guardGrantChange, type GrantChange } from '../groups/grant-change-guard';
import { assertGroupsExist, normalizeName, requireServiceAccountRow, type ServiceAccountRow } from './repo';
import type { CreateServiceAccountInput } from './schemas';

// POST /api/service-account (spec 4.7, CONTRACT.md): Name, Description?, GroupIds?. Joining groups
// follows the rule for adding a user to a group: nobody confers what they do not hold
// (groups/grant-change-guard.ts, on the state that commits).
export async function createServiceAccount(ctx: DomainContext, input: CreateServiceAccountInput): Promise<ServiceAccountRow> {
  await requirePermission(ctx, 'service-account:write');
  const groupIds = patchList(input.GroupIds) ?? [];
  const db = await realmDb(ctx.realm);
  const id = newId();
  const change = { permission: 'service-account:write', principals: [{ kind: 'service-account', id }] as const } satisfies GrantChange;
  await onUniqueViolation(
    () =>
      db.$transaction((tx) =>
        guardGrantChange(ctx, tx, change, async () => {
          await assertGroupsExist(tx, groupIds);
          await tx.serviceAccount.create({
            data: {
              id,
              name: input.Name,
              nameNormalized: normalizeName(input.Name),
              description: optionalText(input.Description),
              isActive: input.IsActive ?? true,
              groups: { create: groupIds.map((groupId) => ({ groupId })) },
            },
          });
        }),
      ),
    'ServiceAccount.NameTaken',
  );
  await publish(eventFrom(ctx, 'service-account.created', id, { serviceAccountId: id, groupCount: groupIds.length, isActive: input.IsActive ?? true }));
  return requireServiceAccountRow(db, id);
}
