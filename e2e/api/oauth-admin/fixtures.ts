import { randomBytes, randomUUID } from 'node:crypto';
import { api, type CookieJar } from '../support/harness';
import { realmSql } from '../support/realm-sql';
import { MAIN_APP_ID } from '../users/fixtures';

// Shared by the OAuth admin tests (spec 4.7 "OAuth clients", "OAuth scopes", "OAuth APIs").

export const CLIENTS = '/api/admin/oauth/clients';
export const SCOPES = '/api/admin/oauth/scopes';
export const APIS = '/api/admin/oauth/apis';

export const MANAGEMENT_API_ID = '00000000-0000-4000-8000-000000000040';
export const MANAGEMENT_SCOPE_ID = '00000000-0000-4000-8000-000000000041';
export const MANAGEMENT_AUDIENCE = 'urn:gatehouse:management-api';

export function tag(): string {
  return randomBytes(4).toString('hex');
}

/** A public SPA client body (CONTRACT.md field names); `extra` overrides. */
export function spaBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ClientId: `spa-${tag()}`,
    DisplayName: 'Single-page app',
    ClientType: 'Public',
    ConsentType: 'Explicit',
    RedirectUris: ['https://spa.example.com/callback'],
    PostLogoutRedirectUris: ['https://spa.example.com/'],
    GrantTypes: ['authorization_code', 'refresh_token'],
    Scopes: ['openid', 'profile', 'offline_access'],
    ...extra,
  };
}

export type ClientBody = { Id: string; ClientId: string; ClientSecret?: string; [field: string]: unknown };

export async function createClient(host: string, admin: CookieJar, body: Record<string, unknown>): Promise<ClientBody> {
  const res = await api(host, 'POST', CLIENTS, { cookie: admin, body });
  if (res.status !== 201) throw new Error(`POST ${CLIENTS} answered ${res.status}: ${res.text}`);
  return res.body;
}

/** What the OAuth engine stores for a client (a refresh token, say), written directly. */
export async function storeEngineRow(slug: string, clientId: string): Promise<string> {
  const id = randomUUID();
  await realmSql(slug, 'INSERT INTO "OidcPayload" ("model", "id", "payload", "clientId") VALUES ($1, $2, $3, $4)', ['RefreshToken', id, '{}', clientId]);
  return id;
}

export async function engineRowCount(slug: string, clientId: string): Promise<number> {
  const rows = await realmSql<{ n: number | string }>(slug, 'SELECT COUNT(*) AS "n" FROM "OidcPayload" WHERE "clientId" = $1', [clientId]);
  return Number(rows[0].n);
}

/**
 * The client behind a service-account credential, as the credential code writes it (the
 * service-account API is not this suite's subject). createdAt is copied from a row the server
 * wrote, so both engines read it back in the server's own date format.
 */
export async function insertServiceAccountClient(slug: string): Promise<{ id: string; clientId: string; serviceAccountId: string }> {
  const id = randomUUID();
  const clientId = `sa-${tag()}`;
  const serviceAccountId = randomUUID();
  await realmSql(
    slug,
    `INSERT INTO "OAuthClient" ("id", "clientId", "displayName", "clientType", "grantTypes", "secretHash", "serviceAccountId", "createdAt")
     SELECT $1, $2, $3, 'Confidential', '["client_credentials"]', $4, $5, "createdAt" FROM "App" WHERE "id" = $6`,
    [id, clientId, 'Robot credential', 'f'.repeat(64), serviceAccountId, MAIN_APP_ID],
  );
  return { id, clientId, serviceAccountId };
}

/** A scope's id by name, through the list. */
export async function scopeIdByName(host: string, admin: CookieJar, name: string): Promise<string> {
  const res = await api(host, 'GET', `${SCOPES}?pageSize=200`, { cookie: admin });
  const scope = res.body.items.find((s: { Name: string }) => s.Name === name);
  if (!scope) throw new Error(`no scope ${name}`);
  return scope.Id;
}
