import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, eventually } from '../support/harness';
import { createClient } from '../support/oauth';
import { authorize, codeFlowTokens, oauthError, oauthRealm, REDIRECT, rp, webClientBody, type OAuthRealm } from './fixtures';

// Issue 30 item 9: a spent authorization code or refresh token presented again revokes its grant
// (the token family), and the replay is an entry of its own in the realm's security log
// (`oauth-token.reused`, category OAuth) naming the client, the kind of credential, the grant and
// the person, never the token itself.

type Entry = { Category: string; EventType: string; Success?: boolean; UserId?: string; IpAddress?: string; Detail?: Record<string, unknown> };

describe('token reuse reaches the security log', () => {
  let realm: OAuthRealm;
  let client: { ClientId: string; ClientSecret?: string };
  let config: oidc.Configuration;

  beforeAll(async () => {
    realm = await oauthRealm();
    client = await createClient(realm.host, realm.admin.jar, webClientBody({ ClientId: 'reuse-app' }));
    config = await rp(realm.host, client.ClientId, client.ClientSecret);
  });

  const basic = () => `Basic ${Buffer.from(`${client.ClientId}:${client.ClientSecret}`).toString('base64')}`;

  /** POST /connect/token as the client, raw: the replay must look exactly like the first redemption. */
  function token(body: Record<string, string>) {
    return api(realm.host, 'POST', '/connect/token', {
      rawBody: new URLSearchParams(body).toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: { authorization: basic() },
    });
  }

  async function reuseEntries(): Promise<Entry[]> {
    const res = await api(realm.host, 'GET', '/api/admin/auth-log?eventType=oauth-token.reused&limit=1000', { cookie: realm.admin.jar });
    expect(res.status, res.text).toBe(200);
    return res.body;
  }

  /** Waits for the entries of `kind` to number `count` (the log subscriber runs after the answer). */
  async function entriesOf(kind: string, count: number): Promise<Entry[]> {
    return eventually(async () => {
      const entries = (await reuseEntries()).filter((e) => e.Detail?.kind === kind);
      expect(entries).toHaveLength(count);
      return entries;
    });
  }

  it('a replayed authorization code: refused, its tokens revoked, and one reuse entry with the client and grant type', async () => {
    const a = await authorize(realm.host, config, realm.admin.jar, 'openid offline_access');
    expect(a.callback.origin + a.callback.pathname, a.page.hops.join(' -> ')).toBe(REDIRECT);
    const code = a.callback.searchParams.get('code')!;
    const redeem = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: a.verifier };
    const first = await token(redeem);
    expect(first.status, first.text).toBe(200);
    const replay = await token(redeem);
    expect(replay.status, replay.text).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    // The family went with it: the refresh token the first redemption gave is dead.
    expect(await oauthError(oidc.refreshTokenGrant(config, first.body.refresh_token))).toBe('invalid_grant');

    const [entry] = await entriesOf('authorization_code', 1);
    expect(entry).toMatchObject({ Category: 'OAuth', EventType: 'oauth-token.reused', Success: false, UserId: realm.admin.userId });
    expect(entry.Detail).toMatchObject({ clientId: client.ClientId, kind: 'authorization_code', userId: realm.admin.userId });
    expect(entry.Detail?.grantId).toMatch(/^[0-9a-f]{64}$/);
    expect(entry.IpAddress).toBeTruthy();
    expect(JSON.stringify(entry)).not.toContain(code);
    // The family's refresh token was not reused by anyone: no entry for it.
    expect(await entriesOf('refresh_token', 0)).toEqual([]);
  });

  it('a replayed refresh token: refused, the family revoked, and one reuse entry with the client and grant type', async () => {
    const first = await codeFlowTokens(realm.host, config, realm.admin.jar, 'openid offline_access');
    const second = await oidc.refreshTokenGrant(config, first.refresh_token!);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const sessionsBefore = await api(realm.host, 'GET', '/api/auth/sessions', { cookie: realm.admin.jar });
    expect(sessionsBefore.status, sessionsBefore.text).toBe(200);
    const grantIds: string[] = sessionsBefore.body.ClientSessions.map((s: { Id: string }) => s.Id);
    const replay = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token! });
    expect(replay.status, replay.text).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect(await oauthError(oidc.refreshTokenGrant(config, second.refresh_token!))).toBe('invalid_grant');

    const [entry] = await entriesOf('refresh_token', 1);
    expect(entry).toMatchObject({ Category: 'OAuth', EventType: 'oauth-token.reused', Success: false, UserId: realm.admin.userId });
    expect(entry.Detail).toMatchObject({ clientId: client.ClientId, kind: 'refresh_token', userId: realm.admin.userId });
    // The grant is named as the person's client session was listed, and that session is gone.
    expect(grantIds).toContain(entry.Detail?.grantId);
    const sessionsAfter = await api(realm.host, 'GET', '/api/auth/sessions', { cookie: realm.admin.jar });
    expect(sessionsAfter.body.ClientSessions.map((s: { Id: string }) => s.Id)).not.toContain(entry.Detail?.grantId);
    const text = JSON.stringify(entry);
    for (const t of [first.refresh_token!, second.refresh_token!, first.access_token]) expect(text).not.toContain(t);
    // The code replay of the test before is still the only one of its kind.
    expect(await entriesOf('authorization_code', 1)).toHaveLength(1);
  });

  it('a refresh token presented once is no reuse: nothing is logged for it', async () => {
    const before = (await reuseEntries()).length;
    const first = await codeFlowTokens(realm.host, config, realm.admin.jar, 'openid offline_access');
    await oidc.refreshTokenGrant(config, first.refresh_token!);
    // An unknown refresh token is refused without a grant to revoke: no reuse either.
    const unknown = await token({ grant_type: 'refresh_token', refresh_token: 'x'.repeat(43) });
    expect(unknown.status).toBe(400);
    await new Promise((r) => setTimeout(r, 300));
    expect(await reuseEntries()).toHaveLength(before);
  });
});
