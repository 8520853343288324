import { requirePermission } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { toJsonList } from '../../db/json-list';
import { onUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { optionalText } from '../merge-patch';
import { assertResourcesExist } from './check-resources';
import { requireScopeRow, type ScopeRow } from './repo';
import type { CreateScopeInput } from './schemas';

// POST /api/admin/oauth/scopes (spec 4.7 "OAuth scopes"). Also the worker of
// POST /api/admin/oauth/apis/{id}/create-implicit-scope.

export type NewScope = { name: string; displayName?: string | null; description?: string | null; resources: readonly string[] };

export async function insertScope(ctx: DomainContext, scope: NewScope, facts: Record<string, unknown> = {}): Promise<ScopeRow> {
  const db = await realmDb(ctx.realm);
  const id = newId();
  const resources = [...new Set(scope.resources)];
  await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        await assertResourcesExist(tx, resources);
        await tx.oAuthScope.create({
          data: {
            id,
            name: scope.name,
            displayName: optionalText(scope.displayName),
            description: optionalText(scope.description),
            resources: toJsonList(resources),
          },
        });
      }),
    new AppError('OAuthScope.NameTaken', { errors: { Name: [`${scope.name} already exists.`] } }),
  );
  await publish(eventFrom(ctx, 'oauth-scope.created', id, { name: scope.name, resources, ...facts }));
  return requireScopeRow(db, id);
}

export async function createScope(ctx: DomainContext, input: CreateScopeInput): Promise<ScopeRow> {
  await requirePermission(ctx, 'oauth-scope:write');
  return insertScope(ctx, { name: input.Name, displayName: input.DisplayName, description: input.Description, resources: input.Resources ?? [] });
}
