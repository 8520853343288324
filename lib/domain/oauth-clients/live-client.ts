import type { RealmDb } from '../../db/types';

// The one answer to "may this client act now?", shared by the OAuth engine's client lookup and the
// bearer check of Gatehouse's own API: the client must be active, and a service-account
// credential's client works only while the credential exists and its account is active. The
// credential's expiry is returned for the caller to enforce (the engine as the secret's expiry).
export async function findLiveClient(db: RealmDb, clientId: string) {
  const row = await db.oAuthClient.findUnique({ where: { clientId } });
  if (!row || !row.isActive) return null;
  if (!row.serviceAccountId) return { row, secretExpiresAt: null, serviceAccountName: null };
  const credential = await db.serviceAccountCredential.findUnique({
    where: { oauthClientId: row.id },
    select: { expiresAt: true, serviceAccount: { select: { isActive: true, name: true } } },
  });
  if (!credential || !credential.serviceAccount.isActive) return null;
  return { row, secretExpiresAt: credential.expiresAt, serviceAccountName: credential.serviceAccount.name };
}
