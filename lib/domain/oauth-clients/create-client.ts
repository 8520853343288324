import { requirePermission } from '../../authz/require-permission';
import { newId, randomToken } from '../../crypto/tokens';
import { toJsonList } from '../../db/json-list';
import type { RealmTx } from '../../db/types';
import { onUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { optionalText } from '../merge-patch';
import { newClientSecret } from './client-secret';
import { defaultClientScopes } from './client-rules';
import { assertMayHandleGatehouseScopes } from './gatehouse-scope-guard';
import { requireClientRow, type ClientRow } from './repo';
import type { CreateClientInput } from './schemas';
import { assertClientValid, type ClientState } from './validate-client';
import { assertClientCapacity } from '../entitlements/capacity';

// POST /api/admin/oauth/clients (spec 4.7; CONTRACT.md "Admin payloads"). A confidential client's
// secret is generated here and answered once; only its SHA-256 is stored (client-secret.ts).
// Creating a terminal or a service account's client at once (the intents of spec 4.7) is
// lib/domain/client-intents, which inserts the client through `insertClient` in its transaction.

export type CreatedClient = { row: ClientRow; secret?: string };

/** What the create will write, worked out before the transaction (ids, the secret, the checked state). */
export type PreparedClient = { id: string; clientId: string; state: ClientState; secret?: { secret: string; secretHash: string } };

/** What links the client to others: the service account it is a credential of, the position it is a terminal of. */
export type ClientLinks = { serviceAccountId?: string | null; positionId?: string | null; isActive?: boolean };

/** 128 random bits, base64url: unguessable and safe in URLs and Basic credentials. */
function generatedClientId(): string {
  return randomToken(16);
}

const dedupe = (list: readonly string[] | null | undefined): string[] => [...new Set(list ?? [])];

export function prepareClient(input: CreateClientInput, links: ClientLinks = {}): PreparedClient {
  const grantTypes = dedupe(input.GrantTypes);
  const state: ClientState = {
    clientType: input.ClientType,
    grantTypes,
    redirectUris: dedupe(input.RedirectUris),
    postLogoutRedirectUris: dedupe(input.PostLogoutRedirectUris),
    capabilities: dedupe(input.Capabilities),
    // None given: the scopes a sign-in needs (openid), or none for a client that only acts as itself.
    scopes: input.Scopes == null ? defaultClientScopes(grantTypes) : dedupe(input.Scopes),
    appId: optionalText(input.AppId),
    positionId: links.positionId ?? null,
  };
  return {
    id: newId(),
    clientId: input.ClientId || generatedClientId(),
    state,
    secret: input.ClientType === 'Confidential' ? newClientSecret() : undefined,
  };
}

export function clientIdTaken(clientId: string): AppError {
  return new AppError('OAuthClient.ClientIdTaken', { errors: { ClientId: [`${clientId} is already used.`] } });
}

/**
 * What every new client must pass, whoever adds it (the admin API, intents, manifests, dynamic
 * registration), inside the transaction that inserts it: a coherent configuration, room under the
 * realm's MaxOAuthClients, and the caller's authority for Gatehouse's own scopes.
 */
export async function assertNewClientAllowed(ctx: DomainContext, tx: RealmTx, state: ClientState): Promise<void> {
  await assertClientValid(tx, state);
  await assertClientCapacity(tx, ctx.realm);
  await assertMayHandleGatehouseScopes(ctx, tx, state.scopes);
}

/** The checks and the insert, inside the caller's transaction (wrap it in `onUniqueViolation(..., clientIdTaken(...))`). */
export async function insertClient(
  ctx: DomainContext,
  tx: RealmTx,
  input: CreateClientInput,
  prepared: PreparedClient,
  links: ClientLinks = {},
): Promise<void> {
  const { id, clientId, state, secret } = prepared;
  await assertNewClientAllowed(ctx, tx, state);
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
      serviceAccountId: links.serviceAccountId ?? null,
      positionId: state.positionId,
      isActive: links.isActive ?? input.IsActive ?? true,
    },
  });
}

export async function createClient(ctx: DomainContext, input: CreateClientInput): Promise<CreatedClient> {
  await requirePermission(ctx, 'oauth-client:write');
  const db = await realmDb(ctx.realm);
  const prepared = prepareClient(input);
  await onUniqueViolation(() => db.$transaction((tx) => insertClient(ctx, tx, input, prepared)), clientIdTaken(prepared.clientId));
  const { id, clientId, state } = prepared;
  await publish(eventFrom(ctx, 'oauth-client.created', id, { clientId, clientType: state.clientType, grantTypes: state.grantTypes }));
  return { row: await requireClientRow(db, id), secret: prepared.secret?.secret };
}
