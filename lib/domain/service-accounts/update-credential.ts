import { requirePermission } from '../../authz/require-permission';
import { toJsonList } from '../../db/json-list';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { patchList, patchText, sentFields } from '../merge-patch';
import { assertCanManageServiceAccount } from './can-manage';
import { toCredentialDto } from './credential-dto';
import { assertScopesExist, futureExpiry } from './credential-fields';
import { requireCredential } from './credential-repo';
import type { CredentialDto, UpdateCredentialInput } from './credential-schemas';
import { requireServiceAccountRow } from './repo';

// PUT /api/service-account/{id}/credentials/{credId}: merge-patch (spec 4.9) of DisplayName, Scopes
// and ExpiresAt; the secret changes only through rotate. A cleared DisplayName falls back to the
// account's name, a cleared ExpiresAt means the credential no longer expires. Tokens already issued
// keep the scopes they were issued with until they expire.
export async function updateCredential(ctx: DomainContext, serviceAccountId: string, credId: string, patch: UpdateCredentialInput): Promise<CredentialDto> {
  await requirePermission(ctx, 'service-account:write');
  const expiresAt = patch.ExpiresAt === undefined ? undefined : patch.ExpiresAt ? futureExpiry(patch.ExpiresAt) : null;
  const scopes = patchList(patch.Scopes);
  const db = await realmDb(ctx.realm);
  const account = await requireServiceAccountRow(db, serviceAccountId);
  const credential = await requireCredential(db, serviceAccountId, credId);
  const text = patchText(patch.DisplayName);
  const displayName = text === undefined ? undefined : (text ?? account.name);
  const now = new Date();
  await db.$transaction(async (tx) => {
    await assertCanManageServiceAccount(ctx, tx, serviceAccountId);
    if (scopes) await assertScopesExist(tx, scopes);
    await tx.serviceAccountCredential.update({ where: { id: credId }, data: { displayName, expiresAt } });
    await tx.oAuthClient.updateMany({
      where: { id: credential.oauthClientId },
      data: { displayName, scopes: scopes === undefined ? undefined : toJsonList(scopes), updatedAt: now },
    });
  });
  await publish(
    eventFrom(ctx, 'service-account.credential-updated', credId, {
      serviceAccountId,
      credentialId: credId,
      changed: sentFields(patch),
      scopes,
      expiresAt: expiresAt === undefined ? undefined : (expiresAt?.toISOString() ?? null),
    }),
  );
  return toCredentialDto(await requireCredential(db, serviceAccountId, credId));
}
