import { requirePermission } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../context';
import { optionalText } from '../merge-patch';
import { apiConflict } from './api-uniqueness';
import { appExists, requireApiRow, type ApiRow } from './repo';
import type { CreateApiInput } from './schemas';

// POST /api/admin/oauth/apis (spec 4.7 "OAuth APIs"; CONTRACT.md). Name (case-insensitively) and
// Audience are unique in the realm.
export async function createApi(ctx: DomainContext, input: CreateApiInput): Promise<ApiRow> {
  await requirePermission(ctx, 'oauth-api:write');
  const db = await realmDb(ctx.realm);
  const id = newId();
  const appId = optionalText(input.AppId);
  try {
    await db.$transaction(async (tx) => {
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
    });
  } catch (e) {
    throw apiConflict(e, { name: input.Name, audience: input.Audience });
  }
  await publish(eventFrom(ctx, 'oauth-api.created', id, { audience: input.Audience }));
  return requireApiRow(db, id);
}
