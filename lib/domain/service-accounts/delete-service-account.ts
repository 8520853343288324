import { requirePermission } from '../../authz/require-permission';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { revokeClientTokens } from '../oauth-clients/revoke-client-tokens';
import { guardGrantChange, type GrantChange } from '../groups/grant-change-guard';
import { assertCanManageServiceAccount } from './can-manage';
import { clientsOfServiceAccount } from './credential-repo';
import { requireServiceAccountRow } from './repo';

// DELETE /api/service-account/{id} (spec 4.7): cascades to the credentials and their OAuth clients
// and revokes the clients' outstanding tokens, in one transaction so no client outlives its account.
export async function deleteServiceAccount(ctx: DomainContext, id: string): Promise<void> {
  await requirePermission(ctx, 'service-account:write');
  const db = await realmDb(ctx.realm);
  const current = await requireServiceAccountRow(db, id);
  const change = { permission: 'service-account:write', principals: [{ kind: 'service-account', id }] as const } satisfies GrantChange;
  const { clientCount, tokensRevoked } = await db.$transaction((tx) =>
    guardGrantChange(ctx, tx, change, async () => {
      await assertCanManageServiceAccount(ctx, tx, id);
      const clients = await clientsOfServiceAccount(tx, id);
      const revoked = await revokeClientTokens(
        tx,
        clients.map((c) => c.clientId),
      );
      await tx.oAuthClient.deleteMany({ where: { id: { in: clients.map((c) => c.id) } } });
      await tx.serviceAccountCredential.deleteMany({ where: { serviceAccountId: id } });
      await tx.serviceAccountGroup.deleteMany({ where: { serviceAccountId: id } });
      await tx.serviceAccount.delete({ where: { id } });
      return { clientCount: clients.length, tokensRevoked: revoked };
    }),
  );
  await publish(
    eventFrom(ctx, 'service-account.deleted', id, {
      serviceAccountId: id,
      credentialCount: current._count.credentials,
      clientCount,
      groupCount: current.groups.length,
      tokensRevoked,
    }),
  );
}
