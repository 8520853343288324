import { driverOf, sqliteStatement } from '../../db/driver-handle';
import { runWhenFree } from '../../db/sqlite-transaction-gate';
import { booleanValue, dateValue, epochMillisOf } from '../../db/sql-values';
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

/** What the bearer check needs of a live client (bearer-token.ts). */
export type LiveClientFacts = {
  appId: string | null;
  serviceAccountId: string | null;
  serviceAccountName: string | null;
  capabilities: string;
  secretExpiresAt: Date | null;
};

// The same answer as findLiveClient, for the bearer check of every API call and JWT introspection,
// in one prepared statement on the realm's driver (lib/db/oidc-payload-sql.ts says why) where
// Prisma made one or two queries through its interpreter.
const FROM =
  'FROM "OAuthClient" c LEFT JOIN "ServiceAccountCredential" cr ON cr."oauthClientId" = c."id" ' +
  'LEFT JOIN "ServiceAccount" sa ON sa."id" = cr."serviceAccountId" WHERE c."clientId" = ';
const COLUMNS =
  'c."isActive", c."appId", c."serviceAccountId", c."capabilities", cr."id" AS "credentialId", sa."isActive" AS "accountActive", sa."name" AS "accountName"';
const SQLITE = `SELECT ${COLUMNS}, cr."expiresAt" AS "secretExpiresAt" ${FROM}?`;
const PG = { name: 'gh-live-client', text: `SELECT ${COLUMNS}, ${epochMillisOf('expiresAt', 'cr')} AS "secretExpiresAt" ${FROM}$1` };

type FactsRow = {
  isActive: unknown;
  appId: string | null;
  serviceAccountId: string | null;
  capabilities: string;
  credentialId: string | null;
  accountActive: unknown;
  accountName: string | null;
  secretExpiresAt: unknown;
};

function factsOf(r: FactsRow | undefined): LiveClientFacts | null {
  if (!r || !booleanValue(r.isActive)) return null;
  const base = { appId: r.appId, serviceAccountId: r.serviceAccountId, capabilities: r.capabilities };
  if (!r.serviceAccountId) return { ...base, serviceAccountName: null, secretExpiresAt: null };
  if (r.credentialId === null || !booleanValue(r.accountActive)) return null;
  return { ...base, serviceAccountName: r.accountName, secretExpiresAt: dateValue(r.secretExpiresAt) };
}

/** findLiveClient's answer, reduced to what the bearer check reads. */
export async function findLiveClientFacts(db: RealmDb, clientId: string): Promise<LiveClientFacts | null> {
  const driver = driverOf(db);
  if (driver?.kind === 'sqlite') return runWhenFree(driver.db, () => factsOf(sqliteStatement(driver.db, SQLITE).get(clientId) as FactsRow | undefined));
  if (driver?.kind === 'postgresql') return factsOf((await driver.pool.query<FactsRow>({ ...PG, values: [clientId] })).rows[0]);
  const live = await findLiveClient(db, clientId);
  if (!live) return null;
  const { appId, serviceAccountId, capabilities } = live.row;
  return { appId, serviceAccountId, capabilities, serviceAccountName: live.serviceAccountName, secretExpiresAt: live.secretExpiresAt };
}
