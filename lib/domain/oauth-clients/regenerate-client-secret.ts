import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { newClientSecret } from './client-secret';
import { assertMayHandleGatehouseScopes } from './gatehouse-scope-guard';
import { parseStringList } from '../../db/json-list';
import { assertNotManaged, requireClientRow } from './repo';

// POST /api/admin/oauth/clients/{id}/regenerate-secret (spec 4.7): a new secret, answered once;
// the old one stops working at once because only one digest is kept.
//
// Tokens already issued stay valid on purpose: regenerating is how a secret is rotated, and
// rotation must not sign every user of the client out. An administrator who suspects the client
// itself was abused deletes or deactivates it, which does revoke its tokens.
export async function regenerateClientSecret(ctx: DomainContext, id: string): Promise<{ ClientId: string; ClientSecret: string }> {
  await requirePermission(ctx, 'oauth-client:write');
  const db = await realmDb(ctx.realm);
  const current = await requireClientRow(db, id);
  assertNotManaged(current);
  if (current.clientType !== 'Confidential') throw new AppError('OAuthClient.NotConfidential');
  const { secret, secretHash } = newClientSecret();
  const now = new Date();
  await db.$transaction(async (tx) => {
    // The new secret is the client's power: read its scopes as they stand when the secret is written.
    await tx.oAuthClient.updateMany({ where: { id: current.id }, data: { secretHash, secretCreatedAt: now, updatedAt: now } });
    const stored = await requireClientRow(tx, current.id);
    await assertMayHandleGatehouseScopes(ctx, tx, parseStringList(stored.scopes));
  });
  await publish(eventFrom(ctx, 'oauth-client.secret-regenerated', current.id, { clientId: current.clientId }));
  return { ClientId: current.clientId, ClientSecret: secret };
}
