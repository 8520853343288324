import { requirePermission } from '../../authz/require-permission';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { assertNotManaged, requireClientRow } from './repo';
import { revokeClientTokens } from './revoke-client-tokens';

// DELETE /api/admin/oauth/clients/{id} (spec 4.7): the client and everything the engine stored for
// it (grants, codes, refresh and reference tokens) go in one transaction, so nothing it was issued
// outlives it. Service-account clients are deleted with their credential instead.
export async function deleteClient(ctx: DomainContext, id: string): Promise<void> {
  await requirePermission(ctx, 'oauth-client:write');
  const db = await realmDb(ctx.realm);
  const current = await requireClientRow(db, id);
  assertNotManaged(current);
  const revokedTokens = await db.$transaction(async (tx) => {
    const count = await revokeClientTokens(tx, [current.clientId]);
    await tx.oAuthClient.delete({ where: { id: current.id } });
    return count;
  });
  await publish(eventFrom(ctx, 'oauth-client.deleted', current.id, { clientId: current.clientId, revokedTokens }));
}
