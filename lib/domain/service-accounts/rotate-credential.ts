import { requirePermission } from '../../authz/require-permission';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { newClientSecret } from '../oauth-clients/client-secret';
import { revokeClientTokens } from '../oauth-clients/revoke-client-tokens';
import { assertCanManageServiceAccount } from './can-manage';
import { toCredentialDto } from './credential-dto';
import { requireCredential } from './credential-repo';
import type { IssuedCredentialDto } from './credential-schemas';
import { requireServiceAccountRow } from './repo';

// POST /api/service-account/{id}/credentials/{credId}/rotate (spec 4.7): a new secret, answered
// this once. There is no overlap: the old secret stops working the moment this commits, because
// the client keeps a single digest. Rotation is what one does after a leak, so the tokens stored
// for the client (reference access tokens and anything else the engine keeps) are revoked with it;
// a workload must fetch a new token with the new secret. The client id stays the same.
export async function rotateCredential(ctx: DomainContext, serviceAccountId: string, credId: string): Promise<IssuedCredentialDto> {
  await requirePermission(ctx, 'service-account:write');
  const db = await realmDb(ctx.realm);
  await requireServiceAccountRow(db, serviceAccountId);
  const credential = await requireCredential(db, serviceAccountId, credId);
  const { secret, secretHash } = newClientSecret();
  const now = new Date();
  const tokensRevoked = await db.$transaction(async (tx) => {
    await assertCanManageServiceAccount(ctx, tx, serviceAccountId);
    await tx.oAuthClient.updateMany({ where: { id: credential.oauthClientId }, data: { secretHash, secretCreatedAt: now, updatedAt: now } });
    await tx.serviceAccountCredential.update({ where: { id: credId }, data: { rotatedAt: now } });
    return revokeClientTokens(tx, credential.client ? [credential.client.clientId] : []);
  });
  await publish(eventFrom(ctx, 'service-account.credential-rotated', credId, { serviceAccountId, credentialId: credId, tokensRevoked }));
  return { ...toCredentialDto(await requireCredential(db, serviceAccountId, credId)), ClientSecret: secret };
}
