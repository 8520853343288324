import { requirePermission } from '../../authz/require-permission';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import type { RealmTx } from '../../db/types';
import { assertNotManaged, requireClientRow, type ClientRow } from './repo';
import { revokeClientTokens } from './revoke-client-tokens';

// DELETE /api/admin/oauth/clients/{id} (spec 4.7): the client and everything the engine stored for
// it (grants, codes, refresh and reference tokens) go in one transaction, so nothing it was issued
// outlives it. Service-account clients are deleted with their credential instead.

/** The client's row and everything the engine stored for it, in the caller's transaction; answers how many engine records went. */
export async function removeClient(tx: RealmTx, client: Pick<ClientRow, 'id' | 'clientId'>): Promise<number> {
  const count = await revokeClientTokens(tx, [client.clientId]);
  await tx.oAuthClient.delete({ where: { id: client.id } });
  return count;
}

export async function deleteClient(ctx: DomainContext, id: string): Promise<void> {
  await requirePermission(ctx, 'oauth-client:write');
  const db = await realmDb(ctx.realm);
  const current = await requireClientRow(db, id);
  assertNotManaged(current);
  const revokedTokens = await db.$transaction((tx) => removeClient(tx, current));
  await publish(eventFrom(ctx, 'oauth-client.deleted', current.id, { clientId: current.clientId, revokedTokens }));
}
