import { requirePermission } from '../../authz/require-permission';
import { newId, randomToken } from '../../crypto/tokens';
import { toJsonList } from '../../db/json-list';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { patchList, patchText } from '../merge-patch';
import { newClientSecret } from '../oauth-clients/client-secret';
import { assertCanManageServiceAccount } from './can-manage';
import { toCredentialDto } from './credential-dto';
import { assertScopesExist, futureExpiry } from './credential-fields';
import { requireCredential } from './credential-repo';
import type { CreateCredentialInput, IssuedCredentialDto } from './credential-schemas';
import { requireServiceAccountRow } from './repo';

// POST /api/service-account/{id}/credentials (spec 4.7, 2.5; CONTRACT.md): makes the credential and
// its OAuth client, confidential with the one grant client_credentials. The secret is answered
// this once; only its digest is stored (client-secret.ts). The client starts active only when the
// account is (update-service-account.ts keeps them in step).

/** `sa-` marks a service-account client in logs and token requests; 128 random bits. */
function newServiceClientId(): string {
  return `sa-${randomToken(16)}`;
}

export async function createCredential(ctx: DomainContext, serviceAccountId: string, input: CreateCredentialInput): Promise<IssuedCredentialDto> {
  await requirePermission(ctx, 'service-account:write');
  const expiresAt = input.ExpiresAt ? futureExpiry(input.ExpiresAt) : null;
  const scopes = patchList(input.Scopes) ?? [];
  const db = await realmDb(ctx.realm);
  const account = await requireServiceAccountRow(db, serviceAccountId);
  const displayName = patchText(input.DisplayName) ?? account.name;
  const { secret, secretHash } = newClientSecret();
  const credId = newId();
  const clientRowId = newId();
  const clientId = newServiceClientId();
  const now = new Date();
  await db.$transaction(async (tx) => {
    // The secret carries the account's permissions to whoever reads this answer.
    await assertCanManageServiceAccount(ctx, tx, serviceAccountId);
    await assertScopesExist(tx, scopes);
    await tx.oAuthClient.create({
      data: {
        id: clientRowId,
        clientId,
        displayName,
        clientType: 'Confidential',
        consentType: 'Implicit',
        secretHash,
        secretCreatedAt: now,
        grantTypes: toJsonList(['client_credentials']),
        scopes: toJsonList(scopes),
        serviceAccountId,
        isActive: account.isActive,
        createdAt: now,
      },
    });
    await tx.serviceAccountCredential.create({
      data: { id: credId, serviceAccountId, oauthClientId: clientRowId, displayName, expiresAt, createdAt: now },
    });
  });
  await publish(
    eventFrom(ctx, 'service-account.credential-created', credId, {
      serviceAccountId,
      credentialId: credId,
      clientId,
      scopes,
      expiresAt: expiresAt?.toISOString() ?? null,
    }),
  );
  return { ...toCredentialDto(await requireCredential(db, serviceAccountId, credId)), ClientSecret: secret };
}
