import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { makeAccount, makeCredential } from '../service-accounts/fixtures';
import { api, type CookieJar } from '../support/harness';
import { discover } from '../support/oauth';
import { grant } from '../users/fixtures';

// Positions (spec 4.7 "Positions"): the realm switch they hide behind, and what the tests make.

export const POSITIONS = '/api/position';

export async function setPositionTerminals(host: string, admin: CookieJar, on: boolean): Promise<void> {
  const res = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin, body: { Features: { PositionTerminals: on } } });
  if (res.status !== 200) throw new Error(`PATCH /api/realm-settings answered ${res.status}: ${res.text}`);
}

export function positionName(): string {
  return `Till ${randomBytes(4).toString('hex')}`;
}

export async function makePosition(host: string, admin: CookieJar, extra: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
  const name = positionName();
  const res = await api(host, 'POST', POSITIONS, { cookie: admin, body: { Name: name, ...extra } });
  if (res.status !== 201) throw new Error(`POST ${POSITIONS} answered ${res.status}: ${res.text}`);
  return { id: res.body.Id, name };
}

/** A Management API bearer token of a service account whose groups grant `permissions`. */
export async function managementToken(host: string, admin: CookieJar, permissions: string[]): Promise<string> {
  const { groupId } = await grant(host, admin, permissions);
  const account = await makeAccount(host, admin, { GroupIds: [groupId] });
  const cred = await makeCredential(host, admin, account.id, { Scopes: ['gatehouse.management'] });
  const config = await discover(host, cred.clientId, cred.secret);
  return (await oidc.clientCredentialsGrant(config, { scope: 'gatehouse.management' })).access_token;
}

/** A terminal client body (Confidential, client_credentials) for `positionId`. */
export function terminalBody(positionId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    DisplayName: 'Till terminal',
    ClientType: 'Confidential',
    GrantTypes: ['client_credentials'],
    Scopes: ['gatehouse.management'],
    PositionId: positionId,
    ...extra,
  };
}
