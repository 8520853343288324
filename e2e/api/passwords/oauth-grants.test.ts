import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeFlowTokens, oauthRealm, rp, webClientBody, type OAuthRealm } from '../oauth/fixtures';
import { api, strongPassword } from '../support/harness';
import { mailCount, waitForMail } from '../support/mailbox';
import { createClient } from '../support/oauth';
import { makeUser, signedIn, type MadeUser } from '../users/fixtures';
import { tokenIn } from './links';

// A new password ends every way the person was signed in, the relying parties included (issue 8
// item 6): a refresh token obtained before a password change, a reset or an administrator's set
// no longer works, and the client has to sign the person in again.
describe('a new password ends OAuth client sessions', () => {
  let realm: OAuthRealm;
  let config: oidc.Configuration;

  beforeAll(async () => {
    realm = await oauthRealm();
    const client = await createClient(realm.host, realm.admin.jar, webClientBody({ ClientId: 'password-grants-app' }));
    config = await rp(realm.host, client.ClientId, client.ClientSecret);
  });

  /** A user signed in to the client, with a refresh token that works right now. */
  async function userWithRefreshToken(): Promise<{ user: MadeUser; jar: Awaited<ReturnType<typeof signedIn>>; refreshToken: string }> {
    const user = await makeUser(realm.host, realm.admin.jar);
    const jar = await signedIn(realm.host, user);
    const tokens = await codeFlowTokens(realm.host, config, jar, 'openid offline_access');
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    return { user, jar, refreshToken: refreshed.refresh_token ?? tokens.refresh_token! };
  }

  const refreshFails = (refreshToken: string) => expect(oidc.refreshTokenGrant(config, refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });

  it('change-password revokes the refresh token (the current browser session stays)', async () => {
    const { user, jar, refreshToken } = await userWithRefreshToken();
    const res = await api(realm.host, 'POST', '/api/account/change-password', {
      cookie: jar,
      body: { CurrentPassword: user.password, NewPassword: strongPassword() },
    });
    expect(res.status, res.text).toBe(200);
    await refreshFails(refreshToken);
    expect((await api(realm.host, 'GET', '/api/account/me', { cookie: jar })).status).toBe(200);
    const list = await api(realm.host, 'GET', '/api/auth/sessions', { cookie: jar });
    expect(list.body.ClientSessions).toEqual([]);
  });

  it('reset-password revokes the refresh token', async () => {
    const { user, refreshToken } = await userWithRefreshToken();
    const before = await mailCount(user.email);
    expect((await api(realm.host, 'POST', '/api/account/forgot-password', { body: { Email: user.email } })).status).toBe(200);
    const token = tokenIn(await waitForMail(user.email, { after: before, subject: /reset/i }), '/reset-password');
    const res = await api(realm.host, 'POST', '/api/account/reset-password', { body: { Email: user.email, Token: token, NewPassword: strongPassword() } });
    expect(res.status, res.text).toBe(200);
    await refreshFails(refreshToken);
  });

  it("an administrator's password set revokes the refresh token", async () => {
    const { user, refreshToken } = await userWithRefreshToken();
    const res = await api(realm.host, 'PUT', `/api/user/${user.id}/password`, { cookie: realm.admin.jar, body: { Password: strongPassword() } });
    expect(res.status, res.text).toBeLessThan(300);
    await refreshFails(refreshToken);
  });

  it("another person's grants are left alone", async () => {
    const other = await userWithRefreshToken();
    const { user } = await userWithRefreshToken();
    expect(
      (await api(realm.host, 'PUT', `/api/user/${user.id}/password`, { cookie: realm.admin.jar, body: { Password: strongPassword() } })).status,
    ).toBeLessThan(300);
    await expect(oidc.refreshTokenGrant(config, other.refreshToken)).resolves.toMatchObject({ access_token: expect.any(String) });
  });
});
