import { requirePermission } from '../../authz/require-permission';
import { onUniqueViolation } from '../../db/errors';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { patchFlag, patchKey, patchList, patchText, sentFields } from '../merge-patch';
import { revokeClientTokens } from '../oauth-clients/revoke-client-tokens';
import { guardGrantChange, type GrantChange } from '../groups/grant-change-guard';
import { assertCanManageServiceAccount } from './can-manage';
import { clientsOfServiceAccount } from './credential-repo';
import { assertGroupsExist, groupIdsOf, normalizeName, requireServiceAccountRow, type ServiceAccountRow } from './repo';
import type { UpdateServiceAccountInput } from './schemas';

// PUT /api/service-account/{id}: merge-patch (spec 4.9). GroupIds, when present, replaces every
// membership. IsActive is mirrored onto the account's OAuth clients so the engine refuses them
// while it is off; turning it off also revokes their stored tokens (memberships stop conferring
// anything at once: lib/authz/grants-repo.ts reads only active accounts).
export async function updateServiceAccount(ctx: DomainContext, id: string, patch: UpdateServiceAccountInput): Promise<ServiceAccountRow> {
  await requirePermission(ctx, 'service-account:write');
  const db = await realmDb(ctx.realm);
  const current = await requireServiceAccountRow(db, id);
  const currentGroups = groupIdsOf(current);
  const name = patchKey(patch.Name);
  const groupIds = patchList(patch.GroupIds);
  const isActive = patchFlag(patch.IsActive);
  const added = groupIds?.filter((g) => !currentGroups.includes(g)) ?? [];
  const activeChanged = isActive !== undefined && isActive !== current.isActive;
  const now = new Date();
  let tokensRevoked = 0;
  // Memberships and IsActive decide what the account holds: the guard checks the result.
  const change = { permission: 'service-account:write', principals: [{ kind: 'service-account', id }] as const } satisfies GrantChange;
  await onUniqueViolation(
    () =>
      db.$transaction((tx) =>
        guardGrantChange(ctx, tx, change, async () => {
          // What it holds now (any write hands its power over); what it gains or loses the guard checks.
          await assertCanManageServiceAccount(ctx, tx, id);
          if (groupIds) await assertGroupsExist(tx, groupIds);
          await tx.serviceAccount.update({
            where: { id },
            data: {
              name,
              nameNormalized: name === undefined ? undefined : normalizeName(name),
              description: patchText(patch.Description),
              isActive,
              updatedAt: now,
            },
          });
          if (groupIds) {
            await tx.serviceAccountGroup.deleteMany({ where: { serviceAccountId: id, groupId: { notIn: groupIds } } });
            if (added.length) await tx.serviceAccountGroup.createMany({ data: added.map((groupId) => ({ serviceAccountId: id, groupId })) });
          }
          if (activeChanged) {
            const clients = await clientsOfServiceAccount(tx, id);
            await tx.oAuthClient.updateMany({ where: { id: { in: clients.map((c) => c.id) } }, data: { isActive, updatedAt: now } });
            if (!isActive)
              tokensRevoked = await revokeClientTokens(
                tx,
                clients.map((c) => c.clientId),
              );
          }
        }),
      ),
    'ServiceAccount.NameTaken',
  );
  await publish(
    eventFrom(ctx, 'service-account.updated', id, {
      serviceAccountId: id,
      changed: sentFields(patch),
      groupCount: groupIds?.length,
      isActive: activeChanged ? isActive : undefined,
      tokensRevoked: tokensRevoked || undefined,
    }),
  );
  return requireServiceAccountRow(db, id);
}
