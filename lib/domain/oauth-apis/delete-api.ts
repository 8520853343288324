import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { requireApiRow, scopesNamingAudience } from './repo';

// DELETE /api/admin/oauth/apis/{id} (spec 4.7). The built-in Management API stays (the Management
// API bearer check of spec 5.2 names its audience). An API that scopes still grant is refused with
// 409 naming the scopes, so no scope is left pointing at an audience nobody serves.
export async function deleteApi(ctx: DomainContext, id: string): Promise<void> {
  await requirePermission(ctx, 'oauth-api:write');
  const db = await realmDb(ctx.realm);
  const current = await requireApiRow(db, id);
  if (current.isBuiltIn) throw new AppError('OAuthApi.BuiltIn');
  await db.$transaction(async (tx) => {
    const scopes = await scopesNamingAudience(tx, current.audience);
    if (scopes.length) {
      throw new AppError('OAuthApi.InUse', {
        detail: `Remove ${current.audience} from the resources of these scopes first: ${scopes.map((s) => s.Name).join(', ')}.`,
        extensions: { scopes },
      });
    }
    await tx.oAuthApi.delete({ where: { id } });
  });
  await publish(eventFrom(ctx, 'oauth-api.deleted', id, { audience: current.audience }));
}
