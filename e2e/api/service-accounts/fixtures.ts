import { randomBytes } from 'node:crypto';
import { api, type CookieJar } from '../support/harness';
import { realmSql } from '../support/realm-sql';

// Service accounts and credentials made through the API, and direct reads of what they stored.

export type MadeAccount = { id: string; name: string };

export async function makeAccount(host: string, admin: CookieJar, extra: Record<string, unknown> = {}): Promise<MadeAccount> {
  const name = `svc-${randomBytes(4).toString('hex')}`;
  const res = await api(host, 'POST', '/api/service-account', { cookie: admin, body: { Name: name, ...extra } });
  if (res.status !== 201) throw new Error(`POST /api/service-account answered ${res.status}: ${res.text}`);
  return { id: res.body.Id, name };
}

export type MadeCredential = { id: string; clientId: string; secret: string };

export async function makeCredential(host: string, admin: CookieJar, accountId: string, body: Record<string, unknown> = {}): Promise<MadeCredential> {
  const res = await api(host, 'POST', `/api/service-account/${accountId}/credentials`, { cookie: admin, body });
  if (res.status !== 201) throw new Error(`POST credentials answered ${res.status}: ${res.text}`);
  return { id: res.body.Id, clientId: res.body.ClientId, secret: res.body.ClientSecret };
}

export type ClientRow = {
  id: string;
  clientId: string;
  clientType: string;
  grantTypes: string;
  scopes: string;
  secretHash: string | null;
  serviceAccountId: string | null;
  isActive: boolean | number;
};

export async function clientRow(slug: string, clientId: string): Promise<ClientRow | undefined> {
  const rows = await realmSql<ClientRow>(
    slug,
    'SELECT "id", "clientId", "clientType", "grantTypes", "scopes", "secretHash", "serviceAccountId", "isActive" FROM "OAuthClient" WHERE "clientId" = $1',
    [clientId],
  );
  return rows[0];
}

/** A row the OAuth engine would have stored for the client (a reference token, say). */
export async function storeEngineToken(slug: string, clientId: string): Promise<string> {
  const id = randomBytes(8).toString('hex');
  await realmSql(slug, 'INSERT INTO "OidcPayload" ("model", "id", "payload", "clientId") VALUES ($1, $2, $3, $4)', ['AccessToken', id, '{}', clientId]);
  return id;
}

export async function engineTokenCount(slug: string, clientId: string): Promise<number> {
  const rows = await realmSql<{ n: number | string }>(slug, 'SELECT COUNT(*) AS "n" FROM "OidcPayload" WHERE "clientId" = $1', [clientId]);
  return Number(rows[0].n);
}
