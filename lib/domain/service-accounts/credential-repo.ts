import type { RealmPrisma, RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';

// Reads of credentials and the OAuth clients behind them (spec 2.5: one confidential
// client_credentials client per credential). ServiceAccountCredential.oauthClientId has no foreign
// key, so the client is read beside the credential.

export const credentialColumns = {
  id: true,
  serviceAccountId: true,
  oauthClientId: true,
  displayName: true,
  expiresAt: true,
  rotatedAt: true,
  lastUsedAt: true,
  createdAt: true,
} as const satisfies RealmPrisma.ServiceAccountCredentialSelect;

export type CredentialRow = RealmPrisma.ServiceAccountCredentialGetPayload<{ select: typeof credentialColumns }>;

/** What a credential answer shows of its client: never the secret's digest. */
export type ClientFacts = { id: string; clientId: string; scopes: string };
export type CredentialView = CredentialRow & { client: ClientFacts | null };

const clientColumns = { id: true, clientId: true, scopes: true } as const satisfies RealmPrisma.OAuthClientSelect;

export async function withClients(db: RealmTx, rows: CredentialRow[]): Promise<CredentialView[]> {
  const clients = rows.length ? await db.oAuthClient.findMany({ where: { id: { in: rows.map((r) => r.oauthClientId) } }, select: clientColumns }) : [];
  const byId = new Map(clients.map((c) => [c.id, c]));
  return rows.map((r) => ({ ...r, client: byId.get(r.oauthClientId) ?? null }));
}

/** The credential `credId` of the account `serviceAccountId`, or 404 (another account's credential is not found either). */
export async function requireCredential(db: RealmTx, serviceAccountId: string, credId: string): Promise<CredentialView> {
  const row = await db.serviceAccountCredential.findFirst({ where: { id: credId, serviceAccountId }, select: credentialColumns });
  if (!row) throw new AppError('ServiceAccountCredential.NotFound');
  return (await withClients(db, [row]))[0];
}

/**
 * Every OAuth client acting for the account: those behind its credentials and any other client
 * linked to it through serviceAccountId. Their `clientId`s key the engine's stored tokens.
 */
export async function clientsOfServiceAccount(tx: RealmTx, serviceAccountId: string): Promise<{ id: string; clientId: string }[]> {
  const creds = await tx.serviceAccountCredential.findMany({ where: { serviceAccountId }, select: { oauthClientId: true } });
  return tx.oAuthClient.findMany({
    where: { OR: [{ serviceAccountId }, { id: { in: creds.map((c) => c.oauthClientId) } }] },
    select: { id: true, clientId: true },
  });
}
