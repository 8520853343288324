import { requirePermission } from '../../authz/require-permission';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { revokeClientTokens } from '../oauth-clients/revoke-client-tokens';
import { assertCanManageServiceAccount } from './can-manage';
import { requireCredential } from './credential-repo';
import { requireServiceAccountRow } from './repo';

// DELETE /api/service-account/{id}/credentials/{credId} (spec 4.7): the credential, its OAuth client
// and the client's stored tokens go together, in one transaction.
export async function deleteCredential(ctx: DomainContext, serviceAccountId: string, credId: string): Promise<void> {
  await requirePermission(ctx, 'service-account:write');
  const db = await realmDb(ctx.realm);
  await requireServiceAccountRow(db, serviceAccountId);
  const credential = await requireCredential(db, serviceAccountId, credId);
  const tokensRevoked = await db.$transaction(async (tx) => {
    await assertCanManageServiceAccount(ctx, tx, serviceAccountId);
    const revoked = await revokeClientTokens(tx, credential.client ? [credential.client.clientId] : []);
    await tx.oAuthClient.deleteMany({ where: { id: credential.oauthClientId } });
    await tx.serviceAccountCredential.delete({ where: { id: credId } });
    return revoked;
  });
  await publish(eventFrom(ctx, 'service-account.credential-deleted', credId, { serviceAccountId, credentialId: credId, tokensRevoked }));
}
