import { requirePermission } from '../../authz/require-permission';
import { newId, randomToken } from '../../crypto/tokens';
import { toJsonList } from '../../db/json-list';
import { onUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { optionalText } from '../merge-patch';
import { newClientSecret } from './client-secret';
import { assertMayHandleGatehouseScopes } from './gatehouse-scope-guard';
import { requireClientRow, type ClientRow } from './repo';
import type { CreateClientInput } from './schemas';
import { assertClientValid, type ClientState } from './validate-client';

// POST /api/admin/oauth/clients (spec 4.7; CONTRACT.md "Admin payloads"). A confidential client's
// secret is generated here and answered once; only its SHA-256 is stored (client-secret.ts).

export type CreatedClient = { row: ClientRow; secret?: string };

/** 128 random bits, base64url: unguessable and safe in URLs and Basic credentials. */
function generatedClientId(): string {
  return randomToken(16);
}

const dedupe = (list: readonly string[] | null | undefined): string[] => [...new Set(list ?? [])];

export async function createClient(ctx: DomainContext, input: CreateClientInput): Promise<CreatedClient> {
  await requirePermission(ctx, 'oauth-client:write');
  const db = await realmDb(ctx.realm);
  const id = newId();
  const clientId = input.ClientId || generatedClientId();
  const state: ClientState = {
    clientType: input.ClientType,
    grantTypes: dedupe(input.GrantTypes),
    redirectUris: dedupe(input.RedirectUris),
    postLogoutRedirectUris: dedupe(input.PostLogoutRedirectUris),
    capabilities: dedupe(input.Capabilities),
    scopes: dedupe(input.Scopes),
    appId: optionalText(input.AppId),
  };
  const secret = input.ClientType === 'Confidential' ? newClientSecret() : undefined;
  await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        await assertClientValid(tx, state);
        await assertMayHandleGatehouseScopes(ctx, tx, state.scopes);
        await tx.oAuthClient.create({
          data: {
            id,
            clientId,
            displayName: input.DisplayName,
            description: optionalText(input.Description),
            clientType: state.clientType,
            consentType: input.ConsentType ?? 'Explicit',
            accessTokenType: input.AccessTokenType ?? 'Jwt',
            secretHash: secret?.secretHash ?? null,
            secretCreatedAt: secret ? new Date() : null,
            redirectUris: toJsonList(state.redirectUris),
            postLogoutRedirectUris: toJsonList(state.postLogoutRedirectUris),
            grantTypes: toJsonList(state.grantTypes),
            scopes: toJsonList(state.scopes),
            capabilities: toJsonList(state.capabilities),
            appId: state.appId,
            isActive: input.IsActive ?? true,
          },
        });
      }),
    new AppError('OAuthClient.ClientIdTaken', { errors: { ClientId: [`${clientId} is already used.`] } }),
  );
  await publish(eventFrom(ctx, 'oauth-client.created', id, { clientId, clientType: state.clientType, grantTypes: state.grantTypes }));
  return { row: await requireClientRow(db, id), secret: secret?.secret };
}
