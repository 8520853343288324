import type { RealmPrisma, RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';

// Reads of OAuth clients (spec 4.7 "OAuth clients"). The columns deliberately leave out the secret's
// hash: only the OAuth engine reads it, to verify a presented secret (docs/architecture.md "Data access").

export const clientColumns = {
  id: true,
  clientId: true,
  displayName: true,
  description: true,
  clientType: true,
  consentType: true,
  accessTokenType: true,
  secretCreatedAt: true,
  redirectUris: true,
  postLogoutRedirectUris: true,
  grantTypes: true,
  scopes: true,
  capabilities: true,
  appId: true,
  serviceAccountId: true,
  positionId: true,
  isDynamic: true,
  isActive: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies RealmPrisma.OAuthClientSelect;

export type ClientRow = RealmPrisma.OAuthClientGetPayload<{ select: typeof clientColumns }>;

/** A client by its Id, or else by its ClientId (tools know the latter); 404 when neither matches. */
export async function requireClientRow(db: RealmTx, idOrClientId: string): Promise<ClientRow> {
  const row =
    (await db.oAuthClient.findUnique({ where: { id: idOrClientId }, select: clientColumns })) ??
    (await db.oAuthClient.findUnique({ where: { clientId: idOrClientId }, select: clientColumns }));
  if (!row) throw new AppError('OAuthClient.NotFound');
  return row;
}

/**
 * The client behind a service-account credential is managed there (spec 4.7 "Credentials": "cannot
 * be mutated through /api/admin/oauth/clients"): its grant and secret rotation belong to the
 * credential, and editing it here would desynchronise the two.
 */
export function assertNotManaged(row: Pick<ClientRow, 'serviceAccountId'>): void {
  if (row.serviceAccountId) {
    throw new AppError('OAuthClient.ManagedByServiceAccount', {
      detail: 'Use /api/service-account/{id}/credentials to change, rotate or delete this client.',
      extensions: { serviceAccountId: row.serviceAccountId },
    });
  }
}
