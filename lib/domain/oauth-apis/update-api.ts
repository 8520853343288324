import { requirePermission } from '../../authz/require-permission';
import { onUniqueViolation } from '../../db/errors';
import { AppError, validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { patchKey, patchText, sentFields } from '../merge-patch';
import { appExists, requireApiRow, type ApiRow } from './repo';
import type { UpdateApiInput } from './schemas';

// PUT /api/admin/oauth/apis/{id}: merge-patch (spec 4.9). The audience is immutable for every API
// (tokens already issued carry it as `aud`, and scopes name the API by it), the built-in
// Management API included; its name and wording may change.
export async function updateApi(ctx: DomainContext, id: string, patch: UpdateApiInput): Promise<ApiRow> {
  await requirePermission(ctx, 'oauth-api:write');
  const db = await realmDb(ctx.realm);
  const current = await requireApiRow(db, id);
  if (patch.Audience && patch.Audience !== current.audience) {
    throw validationError({ Audience: ['The audience cannot change; create another API.'] });
  }
  const name = patchKey(patch.Name);
  const appId = patchText(patch.AppId);
  // The audience cannot change (above), so only the name can collide.
  await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        if (appId && !(await appExists(tx, appId))) throw validationError({ AppId: ['No application has this id.'] });
        await tx.oAuthApi.update({
          where: { id },
          data: {
            name,
            nameNormalized: name === undefined ? undefined : name.toLowerCase(),
            displayName: patchText(patch.DisplayName),
            description: patchText(patch.Description),
            appId,
            updatedAt: new Date(),
          },
        });
      }),
    new AppError('OAuthApi.NameTaken', { errors: { Name: [`${name} is already used.`] } }),
  );
  await publish(eventFrom(ctx, 'oauth-api.updated', id, { audience: current.audience, changed: sentFields(patch) }));
  return requireApiRow(db, id);
}
