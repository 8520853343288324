import { requirePermission } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { onUniqueViolation } from '../../db/errors';
import { AppError, validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { optionalText } from '../merge-patch';
import { appExists, requireApiRow, type ApiRow } from './repo';
import type { CreateApiInput } from './schemas';

// POST /api/admin/oauth/apis (spec 4.7 "OAuth APIs"; CONTRACT.md). Name (case-insensitively) and
// Audience are unique in the realm.
export async function createApi(ctx: DomainContext, input: CreateApiInput): Promise<ApiRow> {
  await requirePermission(ctx, 'oauth-api:write');
  const db = await realmDb(ctx.realm);
  const id = newId();
  const appId = optionalText(input.AppId);
  await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        if (appId && !(await appExists(tx, appId))) throw validationError({ AppId: ['No application has this id.'] });
        await tx.oAuthApi.create({
          data: {
            id,
            name: input.Name,
            nameNormalized: input.Name.toLowerCase(),
            audience: input.Audience,
            displayName: optionalText(input.DisplayName),
            description: optionalText(input.Description),
            appId,
          },
        });
      }),
    new AppError('OAuthApi.NameTaken', { errors: { Name: [`${input.Name} is already used.`] } }),
    { audience: new AppError('OAuthApi.AudienceTaken', { errors: { Audience: [`${input.Audience} is already used.`] } }) },
  );
  await publish(eventFrom(ctx, 'oauth-api.created', id, { audience: input.Audience }));
  return requireApiRow(db, id);
}
