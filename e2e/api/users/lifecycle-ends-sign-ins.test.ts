import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeFlowTokens, oauthRealm, rp, webClientBody, type OAuthRealm } from '../oauth/fixtures';
import { api } from '../support/harness';
import { createClient } from '../support/oauth';
import { makeUser, signedIn, type MadeUser } from './fixtures';

// Deleting or deactivating a person ends every way they were signed in, the relying parties
// included (issue 30 item 7): after a restore or a reactivation, a refresh token from before gets
// invalid_grant and an access token from before introspects as inactive. Before, only the browser
// sessions ended, and the old refresh token worked again once the person was back.
describe('deletion and deactivation end OAuth client sessions', () => {
  let realm: OAuthRealm;
  let config: oidc.Configuration;

  beforeAll(async () => {
    realm = await oauthRealm();
    const client = await createClient(realm.host, realm.admin.jar, webClientBody({ ClientId: 'lifecycle-grants-app' }));
    config = await rp(realm.host, client.ClientId, client.ClientSecret);
  });

  type Signed = { user: MadeUser; refreshToken: string; accessToken: string };

  /** A user signed in to the client, with a refresh and an access token that work right now. */
  async function userWithTokens(): Promise<Signed> {
    const user = await makeUser(realm.host, realm.admin.jar);
    const jar = await signedIn(realm.host, user);
    const tokens = await codeFlowTokens(realm.host, config, jar, 'openid offline_access');
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect((await oidc.tokenIntrospection(config, refreshed.access_token)).active).toBe(true);
    return { user, refreshToken: refreshed.refresh_token ?? tokens.refresh_token!, accessToken: refreshed.access_token };
  }

  async function expectEnded({ refreshToken, accessToken }: Signed): Promise<void> {
    await expect(oidc.refreshTokenGrant(config, refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await oidc.tokenIntrospection(config, accessToken, { token_type_hint: 'access_token' })).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(config, refreshToken, { token_type_hint: 'refresh_token' })).toEqual({ active: false });
  }

  const admin = (method: string, path: string, body?: unknown) => api(realm.host, method, path, { cookie: realm.admin.jar, body });

  it('delete, then restore: the old refresh and access tokens stay dead', async () => {
    const signed = await userWithTokens();
    expect((await admin('DELETE', `/api/user/${signed.user.id}`)).status).toBeLessThan(300);
    const restored = await admin('POST', `/api/user/${signed.user.id}/restore`);
    expect(restored.status, restored.text).toBe(200);
    await expectEnded(signed);
    // The person is back and signs in to the client afresh.
    const again = await codeFlowTokens(realm.host, config, await signedIn(realm.host, signed.user), 'openid offline_access');
    await expect(oidc.refreshTokenGrant(config, again.refresh_token!)).resolves.toMatchObject({ access_token: expect.any(String) });
  });

  it('bulk delete, then bulk restore: the same', async () => {
    const signed = await userWithTokens();
    expect((await admin('DELETE', '/api/user', { Ids: [signed.user.id] })).status).toBeLessThan(300);
    expect((await admin('POST', '/api/user/restore', { Ids: [signed.user.id] })).status).toBeLessThan(300);
    await expectEnded(signed);
  });

  it('deactivate, then reactivate (PUT …/active): the old refresh and access tokens stay dead', async () => {
    const signed = await userWithTokens();
    expect((await admin('PUT', `/api/user/${signed.user.id}/active`, { IsActive: false })).status).toBeLessThan(300);
    expect((await admin('PUT', `/api/user/${signed.user.id}/active`, { IsActive: true })).status).toBeLessThan(300);
    await expectEnded(signed);
  });

  it('deactivate, then reactivate (PUT /api/user/{id} with IsActive): the same', async () => {
    const signed = await userWithTokens();
    expect((await admin('PUT', `/api/user/${signed.user.id}`, { IsActive: false })).status).toBeLessThan(300);
    expect((await admin('PUT', `/api/user/${signed.user.id}`, { IsActive: true })).status).toBeLessThan(300);
    await expectEnded(signed);
  });

  it("another person's tokens are left alone", async () => {
    const other = await userWithTokens();
    const { user } = await userWithTokens();
    expect((await admin('DELETE', `/api/user/${user.id}`)).status).toBeLessThan(300);
    await expect(oidc.refreshTokenGrant(config, other.refreshToken)).resolves.toMatchObject({ access_token: expect.any(String) });
  });
});
