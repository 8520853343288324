import { newId } from '../../crypto/tokens';
import { onUniqueViolation } from '../../db/errors';
import { parseStringList, toJsonList } from '../../db/json-list';
import type { RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import type { ClientType } from './client-rules';
import { assertNewClientAllowed, clientIdTaken } from './create-client';
import { removeClient } from './delete-client';
import { clientColumns, type ClientRow } from './repo';
import { assertClientChangeAllowed } from './update-client';
import type { ClientState } from './validate-client';

// Dynamic client registration (RFC 7591) and its management (RFC 7592): the OAuth engine's adapter
// hands the registered metadata here, and the client is written as the admin API writes one
// (issue 30 item 8): the same checks inside the transaction that commits (a coherent configuration,
// MaxOAuthClients, no Gatehouse scope for a registrant), and after commit the same
// `oauth-client.*` events, so the security log records it, consoles hear of it (docs/realtime.md)
// and every instance drops its cached client (lib/oidc/client-cache.ts, the Redis relay).
// The registrant holds no permission: it writes its own dynamically registered client and no other.

/** A registration as the engine validated it (lib/oidc/client-metadata.ts `fromRegistration`). */
export type Registration = {
  clientId: string;
  displayName: string;
  clientType: ClientType;
  /** The client secret's SHA-256 (client-secret.ts), or null for a public client. */
  secretHash: string | null;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: string[];
  scopes: string[];
  /** The App whose host it was registered through, null for the realm's own (client-trust.ts). */
  appId: string | null;
  /** The rest of the registered metadata (RFC 7591), as JSON, which the engine reads back. */
  metadata: string;
};

const VIA = 'dynamic-registration' as const;

function requireRegistrantOf(ctx: DomainContext, clientId: string): void {
  if (ctx.actor.kind !== 'registrant' || ctx.actor.clientId !== clientId) throw new AppError('Auth.Forbidden');
}

function stateOf(r: Registration, positionId: string | null): ClientState {
  return {
    clientType: r.clientType,
    grantTypes: r.grantTypes,
    redirectUris: r.redirectUris,
    postLogoutRedirectUris: r.postLogoutRedirectUris,
    // Gatehouse's trusted properties never come from a registration (lib/oidc/client-trust.ts).
    capabilities: [],
    scopes: r.scopes,
    appId: r.appId,
    positionId,
  };
}

/** The columns a registration writes; consent, token type and capabilities are the untrusted defaults. */
function registeredColumns(r: Registration) {
  return {
    displayName: r.displayName,
    clientType: r.clientType,
    consentType: 'Explicit',
    accessTokenType: 'Jwt',
    secretHash: r.secretHash,
    redirectUris: toJsonList(r.redirectUris),
    postLogoutRedirectUris: toJsonList(r.postLogoutRedirectUris),
    grantTypes: toJsonList(r.grantTypes),
    scopes: toJsonList(r.scopes),
    capabilities: toJsonList([]),
    metadata: r.metadata,
  };
}

/** POST /connect/register: the new client, checked and inserted in one transaction. */
export async function registerClient(ctx: DomainContext, registration: Registration): Promise<void> {
  requireRegistrantOf(ctx, registration.clientId);
  const db = await realmDb(ctx.realm);
  const id = newId();
  await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        await assertNewClientAllowed(ctx, tx, stateOf(registration, null));
        await tx.oAuthClient.create({
          data: {
            id,
            clientId: registration.clientId,
            ...registeredColumns(registration),
            secretCreatedAt: registration.secretHash ? new Date() : null,
            appId: registration.appId,
            isDynamic: true,
          },
        });
      }),
    clientIdTaken(registration.clientId),
  );
  await publish(
    eventFrom(ctx, 'oauth-client.created', id, {
      clientId: registration.clientId,
      clientType: registration.clientType,
      grantTypes: registration.grantTypes,
      via: VIA,
    }),
  );
}

/** The stored client a registrant may manage: dynamically registered (not made by an administrator or a credential). */
type RegisteredRow = ClientRow & { secretHash: string | null; metadata: string };

async function requireRegisteredRow(tx: RealmTx, clientId: string): Promise<RegisteredRow> {
  const row = await tx.oAuthClient.findUnique({ where: { clientId }, select: { ...clientColumns, secretHash: true, metadata: true } });
  if (!row) throw new AppError('OAuthClient.NotFound');
  if (!row.isDynamic || row.serviceAccountId)
    throw new AppError('Auth.Forbidden', { detail: 'Only a dynamically registered client is managed through registration.' });
  return row;
}

/** The columns an RFC 7592 update may change, named as the admin API's fields are. */
const TEXT_FIELDS = {
  displayName: 'DisplayName',
  clientType: 'ClientType',
  consentType: 'ConsentType',
  accessTokenType: 'AccessTokenType',
  secretHash: 'ClientSecret',
  metadata: 'Metadata',
} as const;
const LIST_FIELDS = {
  redirectUris: 'RedirectUris',
  postLogoutRedirectUris: 'PostLogoutRedirectUris',
  grantTypes: 'GrantTypes',
  scopes: 'Scopes',
  capabilities: 'Capabilities',
} as const;

function changedFields(stored: RegisteredRow, columns: ReturnType<typeof registeredColumns>): string[] {
  const sameList = (a: string, b: string) => JSON.stringify(parseStringList(a)) === JSON.stringify(parseStringList(b));
  const text = (Object.keys(TEXT_FIELDS) as (keyof typeof TEXT_FIELDS)[]).filter((c) => stored[c] !== columns[c]).map((c) => TEXT_FIELDS[c]);
  const lists = (Object.keys(LIST_FIELDS) as (keyof typeof LIST_FIELDS)[]).filter((c) => !sameList(stored[c], columns[c])).map((c) => LIST_FIELDS[c]);
  return [...text, ...lists];
}

/** PUT /connect/register/{client_id}: the registration replaced, checked as an admin update is, in one transaction. */
export async function changeRegisteredClient(ctx: DomainContext, registration: Registration): Promise<void> {
  requireRegistrantOf(ctx, registration.clientId);
  const db = await realmDb(ctx.realm);
  const { id, changed } = await db.$transaction(async (tx) => {
    // Written first, so the row is locked (PostgreSQL) or the database is (SQLite) before it is
    // read: the checks see the state this update commits over (as update-client.ts does).
    await tx.oAuthClient.updateMany({ where: { clientId: registration.clientId }, data: { updatedAt: new Date() } });
    const stored = await requireRegisteredRow(tx, registration.clientId);
    // A client stays with the App it was registered through, whichever host manages it later.
    const next = { ...registration, appId: stored.appId };
    await assertClientChangeAllowed(ctx, tx, stored, stateOf(next, stored.positionId));
    const columns = registeredColumns(next);
    const secretChanged = columns.secretHash !== stored.secretHash;
    await tx.oAuthClient.update({
      where: { id: stored.id },
      data: { ...columns, ...(secretChanged ? { secretCreatedAt: columns.secretHash ? new Date() : null } : {}), updatedAt: new Date() },
    });
    return { id: stored.id, changed: changedFields(stored, columns) };
  });
  await publish(eventFrom(ctx, 'oauth-client.updated', id, { clientId: registration.clientId, changed, revokedTokens: 0, via: VIA }));
}

/** DELETE /connect/register/{client_id}: the client and everything the engine stored for it, in one transaction. */
export async function deleteRegisteredClient(ctx: DomainContext, clientId: string): Promise<void> {
  requireRegistrantOf(ctx, clientId);
  const db = await realmDb(ctx.realm);
  const { id, revokedTokens } = await db.$transaction(async (tx) => {
    const stored = await requireRegisteredRow(tx, clientId);
    return { id: stored.id, revokedTokens: await removeClient(tx, stored) };
  });
  await publish(eventFrom(ctx, 'oauth-client.deleted', id, { clientId, revokedTokens, via: VIA }));
}
