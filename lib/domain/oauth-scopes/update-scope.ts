import { requirePermission } from '../../authz/require-permission';
import { parseStringList, toJsonList } from '../../db/json-list';
import { onUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { patchKey, patchList, patchText, sentFields } from '../merge-patch';
import { assertResourcesExist } from './check-resources';
import { assertScopeUnused, requireScopeRow, type ScopeRow } from './repo';
import type { UpdateScopeInput } from './schemas';

// PUT /api/admin/oauth/scopes/{id}: merge-patch (spec 4.9).
// - Built-in scopes (spec 2.4, and gatehouse.management) keep their name and resources: the engine
//   and the Management API's bearer check (spec 5.2) rely on them. Their wording may change.
// - Clients list scopes by name, so a scope that clients list is not renamed under them (409
//   naming the clients); the alternative, rewriting every client, would change clients silently.

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

export async function updateScope(ctx: DomainContext, id: string, patch: UpdateScopeInput): Promise<ScopeRow> {
  await requirePermission(ctx, 'oauth-scope:write');
  const db = await realmDb(ctx.realm);
  const current = await requireScopeRow(db, id);
  const name = patchKey(patch.Name);
  const renamed = name !== undefined && name !== current.name;
  const resources = patchList(patch.Resources);
  const resourcesChanged = resources !== undefined && !sameSet(resources, parseStringList(current.resources));
  if (current.isBuiltIn && (renamed || resourcesChanged)) {
    throw new AppError('OAuthScope.BuiltIn', { detail: `${current.name} is built in: only its display name and description can change.` });
  }
  await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        if (renamed) await assertScopeUnused(tx, current.name, 'rename');
        if (resources) await assertResourcesExist(tx, resources);
        await tx.oAuthScope.update({
          where: { id },
          data: {
            name: renamed ? name : undefined,
            displayName: patchText(patch.DisplayName),
            description: patchText(patch.Description),
            resources: resources === undefined ? undefined : toJsonList(resources),
            updatedAt: new Date(),
          },
        });
      }),
    new AppError('OAuthScope.NameTaken', { errors: { Name: [`${name} already exists.`] } }),
  );
  await publish(
    eventFrom(ctx, 'oauth-scope.updated', id, {
      name: renamed ? name : current.name,
      previousName: renamed ? current.name : undefined,
      changed: sentFields(patch),
    }),
  );
  return requireScopeRow(db, id);
}
