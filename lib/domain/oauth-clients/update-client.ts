import { requirePermission } from '../../authz/require-permission';
import { parseStringList, toJsonList } from '../../db/json-list';
import { validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import type { RealmTx } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { patchFlag, patchKey, patchList, patchText, sentFields } from '../merge-patch';
import type { ClientType } from './client-rules';
import { assertNotManaged, requireClientRow, type ClientRow } from './repo';
import { revokeClientTokens } from './revoke-client-tokens';
import type { UpdateClientInput } from './schemas';
import { assertClientValid, type ClientState } from './validate-client';
import { assertMayHandleGatehouseScopes } from './gatehouse-scope-guard';

// PUT /api/admin/oauth/clients/{id}: merge-patch (spec 4.9). ClientId and ClientType are immutable
// (the engine keys tokens by client id, and a type change would turn a secret-less client into one
// that needs a secret or the other way round); the merged state is checked as a create would be.

function assertImmutable(current: ClientRow, patch: UpdateClientInput): void {
  const errors: Record<string, string[]> = {};
  if (patch.ClientId && patch.ClientId !== current.clientId) errors.ClientId = ['The client id cannot change.'];
  if (patch.ClientType && patch.ClientType !== current.clientType) errors.ClientType = ['The client type cannot change; create another client.'];
  if (Object.keys(errors).length) throw validationError(errors);
}

/** `patched` when sent (deduplicated), else the stored list. */
function merged(patched: string[] | undefined, stored: string): string[] {
  return patched ?? parseStringList(stored);
}

/**
 * What every change of a client must pass, whoever makes it (the admin API, dynamic registration's
 * RFC 7592 update), inside the transaction that writes it, on the row as stored there.
 */
export async function assertClientChangeAllowed(ctx: DomainContext, tx: RealmTx, stored: Pick<ClientRow, 'scopes'>, state: ClientState): Promise<void> {
  await assertClientValid(tx, state);
  // Both the scopes it has and the ones it gets: changing a client that carries Gatehouse's own
  // scopes (its redirect URIs, its consent type) is as good as giving them.
  await assertMayHandleGatehouseScopes(ctx, tx, [...parseStringList(stored.scopes), ...state.scopes]);
}

export async function updateClient(ctx: DomainContext, id: string, patch: UpdateClientInput): Promise<ClientRow> {
  await requirePermission(ctx, 'oauth-client:write');
  const db = await realmDb(ctx.realm);
  const current = await requireClientRow(db, id);
  assertNotManaged(current);
  assertImmutable(current, patch);

  const lists = {
    grantTypes: patchList(patch.GrantTypes),
    redirectUris: patchList(patch.RedirectUris),
    postLogoutRedirectUris: patchList(patch.PostLogoutRedirectUris),
    capabilities: patchList(patch.Capabilities),
    scopes: patchList(patch.Scopes),
  };
  const appId = patchText(patch.AppId);
  const isActive = patchFlag(patch.IsActive);
  let revokedTokens = 0;

  await db.$transaction(async (tx) => {
    // Write first, so the row is locked (PostgreSQL) or the database is (SQLite) before it is read:
    // the checks below see the state this update commits over, not one a concurrent update changed.
    // (updateMany: a client deleted meanwhile then reads as 404 below, not as a failed update.)
    await tx.oAuthClient.updateMany({ where: { id: current.id }, data: { updatedAt: new Date() } });
    const stored = await requireClientRow(tx, current.id);
    assertNotManaged(stored);
    const state: ClientState = {
      clientType: stored.clientType as ClientType,
      grantTypes: merged(lists.grantTypes, stored.grantTypes),
      redirectUris: merged(lists.redirectUris, stored.redirectUris),
      postLogoutRedirectUris: merged(lists.postLogoutRedirectUris, stored.postLogoutRedirectUris),
      capabilities: merged(lists.capabilities, stored.capabilities),
      scopes: merged(lists.scopes, stored.scopes),
      appId: appId === undefined ? stored.appId : appId,
      positionId: stored.positionId,
    };
    await assertClientChangeAllowed(ctx, tx, stored, state);
    const asJson = (list: string[] | undefined) => (list === undefined ? undefined : toJsonList(list));
    await tx.oAuthClient.update({
      where: { id: current.id },
      data: {
        displayName: patchKey(patch.DisplayName),
        description: patchText(patch.Description),
        // Enum-like fields never clear (spec 4.9): null means unchanged.
        consentType: patch.ConsentType ?? undefined,
        accessTokenType: patch.AccessTokenType ?? undefined,
        redirectUris: asJson(lists.redirectUris),
        postLogoutRedirectUris: asJson(lists.postLogoutRedirectUris),
        grantTypes: asJson(lists.grantTypes),
        scopes: asJson(lists.scopes),
        capabilities: asJson(lists.capabilities),
        appId,
        isActive,
        updatedAt: new Date(),
      },
    });
    // A deactivated client must stop working now, not when its refresh tokens expire: its stored
    // grants and tokens go, as a deactivated user's sessions do. Reactivating does not bring them back.
    if (isActive === false && stored.isActive) revokedTokens = await revokeClientTokens(tx, [stored.clientId]);
  });
  await publish(eventFrom(ctx, 'oauth-client.updated', current.id, { clientId: current.clientId, changed: sentFields(patch), revokedTokens }));
  return requireClientRow(db, current.id);
}
