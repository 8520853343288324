import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, CookieJar } from '../support/harness';
import { makeUser } from '../users/fixtures';
import { createClient, issuerOf } from '../support/oauth';
import { browse, DEVICE_CODE_GRANT, formIn, oauthError, oauthFailure, oauthRealm, rp, submit, userinfo, verifyJwt, type OAuthRealm } from './fixtures';

// The device authorization grant (RFC 8628, issue 4.3): the device asks for a code, the person
// enters it in a signed-in browser at /connect/device (the engine's own pages, then the sign-in
// bridge at /connect/interaction), and the device's polling turns into tokens.

describe('device authorization grant', () => {
  let realm: OAuthRealm;
  let client: { ClientId: string };
  let config: oidc.Configuration;

  beforeAll(async () => {
    realm = await oauthRealm();
    const res = await api(realm.host, 'POST', '/api/admin/oauth/clients', {
      cookie: realm.admin.jar,
      body: {
        DisplayName: 'Smart TV',
        ClientType: 'Public',
        ConsentType: 'Implicit',
        GrantTypes: [DEVICE_CODE_GRANT, 'refresh_token'],
        Scopes: ['openid', 'profile', 'offline_access'],
      },
    });
    // The admin API takes the device grant, with no redirect URI (the device has none).
    expect(res.status, res.text).toBe(201);
    expect(res.body.GrantTypes).toEqual([DEVICE_CODE_GRANT, 'refresh_token']);
    client = res.body;
    config = await rp(realm.host, client.ClientId);
  });

  /** The person's side: open the verification URI, confirm the code; returns the last page. */
  async function approveInBrowser(userCode: string, jar: CookieJar, choice: 'confirm' | 'abort' = 'confirm') {
    // The verification_uri_complete form: the engine answers with a self-submitting form.
    const open = await api(realm.host, 'GET', `/connect/device?user_code=${encodeURIComponent(userCode)}`, { cookie: jar, headers: { accept: 'text/html' } });
    expect(open.status, open.text).toBe(200);
    const entry = formIn(open.text);
    expect(entry.fields).toMatchObject({ user_code: userCode });
    expect(entry.fields.xsrf).toBeTruthy();

    const confirmPage = await submit(realm.host, jar, entry);
    expect(confirmPage.status, confirmPage.text).toBe(200);
    expect(confirmPage.text).toContain('Smart TV');
    const confirmForm = formIn(confirmPage.text, 'op.deviceConfirmForm');
    if (choice === 'abort') {
      const { confirm: _ignored, ...fields } = confirmForm.fields;
      return submit(realm.host, jar, { ...confirmForm, fields }, { abort: 'yes' });
    }
    const confirmed = await submit(realm.host, jar, confirmForm);
    expect(confirmed.status, confirmed.text).toBeGreaterThanOrEqual(300);
    expect(confirmed.status).toBeLessThan(400);
    // Through the sign-in bridge (already signed in, consent implied) and back to the engine.
    const { res, hops } = await browse(realm.host, confirmed.headers.location!, jar);
    expect(hops.join(' -> ')).toMatch(/^\/connect\/interaction\/[^/]+ -> \/connect\/device\//);
    return res;
  }

  it('discovery advertises the device endpoint and grant', () => {
    const m = config.serverMetadata();
    expect(m.device_authorization_endpoint).toBe(`${issuerOf(realm.host)}/connect/deviceauthorization`);
    expect(m.grant_types_supported).toContain(DEVICE_CODE_GRANT);
  });

  it('a code confirmed in a signed-in browser becomes tokens for that person', async () => {
    const da = await oidc.initiateDeviceAuthorization(config, { scope: 'openid profile offline_access' });
    expect(da.verification_uri).toBe(`${issuerOf(realm.host)}/connect/device`);
    expect(da.verification_uri_complete).toBe(`${issuerOf(realm.host)}/connect/device?user_code=${encodeURIComponent(da.user_code)}`);
    expect(da.expires_in).toBe(600);

    // Before the person acts the device is told to keep waiting.
    const early = await api(realm.host, 'POST', '/connect/token', {
      rawBody: new URLSearchParams({ grant_type: DEVICE_CODE_GRANT, device_code: da.device_code, client_id: client.ClientId }).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(early.status, early.text).toBe(400);
    expect(early.body.error).toBe('authorization_pending');

    const done = await approveInBrowser(da.user_code, realm.admin.jar);
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain('Device connected');

    const tokens = await oidc.pollDeviceAuthorizationGrant(config, { ...da, interval: 1 });
    expect(tokens.claims()?.sub).toBe(realm.admin.userId);
    await verifyJwt(realm.host, tokens.id_token!, client.ClientId);
    expect(tokens.refresh_token).toBeTruthy();
    const info = await userinfo(realm.host, tokens.access_token);
    expect(info.status, info.text).toBe(200);
    expect(info.body).toMatchObject({ sub: realm.admin.userId, preferred_username: realm.admin.userName });

    // The refresh token works for the device like any other.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);

    // The device code is spent, and presenting it again revokes what it issued (as a code reuse does).
    expect(await oauthError(oidc.pollDeviceAuthorizationGrant(config, { ...da, interval: 1 }))).toBe('invalid_grant');
    expect(await oauthError(oidc.refreshTokenGrant(config, refreshed.refresh_token!))).toBe('invalid_grant');
    expect((await userinfo(realm.host, refreshed.access_token)).status).toBe(401);
  });

  // An anonymous engine session (it holds only a form's xsrf secret) survives a missing browser session.
  it('a browser that is not signed in yet is sent to sign in, and comes back to finish', async () => {
    const user = await makeUser(realm.host, realm.admin.jar);
    const jar = new CookieJar();
    const da = await oidc.initiateDeviceAuthorization(config, { scope: 'openid profile' });
    const open = await api(realm.host, 'GET', `/connect/device?user_code=${encodeURIComponent(da.user_code)}`, {
      cookie: jar,
      headers: { accept: 'text/html' },
    });
    const confirmPage = await submit(realm.host, jar, formIn(open.text));
    expect(confirmPage.status, confirmPage.text).toBe(200);
    const confirmed = await submit(realm.host, jar, formIn(confirmPage.text, 'op.deviceConfirmForm'));
    const toLogin = await browse(realm.host, confirmed.headers.location!, jar);
    expect(toLogin.url.pathname).toBe('/login');
    const continuation = toLogin.url.searchParams.get('redirect')!;
    expect(continuation).toMatch(/^\/connect\/interaction\//);

    const login = await api(realm.host, 'POST', '/api/account/login', { cookie: jar, body: { UserName: user.userName, Password: user.password } });
    expect(login.status, login.text).toBe(200);
    const done = await browse(realm.host, continuation, jar);
    expect(done.res.text).toContain('Device connected');
    const tokens = await oidc.pollDeviceAuthorizationGrant(config, { ...da, interval: 1 });
    expect(tokens.claims()?.sub).toBe(user.id);
  });

  it('a code the person cancels is access_denied for the device', async () => {
    const da = await oidc.initiateDeviceAuthorization(config, { scope: 'openid' });
    const cancelled = await approveInBrowser(da.user_code, realm.admin.jar, 'abort');
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.text).toContain('cancelled');
    expect(await oauthError(oidc.pollDeviceAuthorizationGrant(config, { ...da, interval: 1 }))).toBe('access_denied');
  });

  it('an unknown code re-renders the entry page with an error, and nothing is granted', async () => {
    const open = await api(realm.host, 'GET', '/connect/device', { cookie: realm.admin.jar, headers: { accept: 'text/html' } });
    expect(open.status).toBe(200);
    const form = formIn(open.text, 'op.deviceInputForm');
    const res = await submit(realm.host, realm.admin.jar, form, { user_code: 'BCDF-GHJK' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('That code is not valid');
    expect(res.text).not.toMatch(/\n\s+at /);
  });

  // Known engine bug (oidc-provider 9.13.3, reported): when the POST carries no engine session, the
  // error handler puts a fresh xsrf secret into the new, never-saved session and its
  // ensureSessionSave then calls Session#persist(), which throws for a session without `exp`: 500
  // instead of the entry page with an error. Turn `it.fails` into `it` once that is fixed.
  it.fails('a code-entry form posted without its session (cookies lost) is re-rendered, not a server error', async () => {
    const res = await api(realm.host, 'POST', '/connect/device', {
      rawBody: new URLSearchParams({ xsrf: 'forged', user_code: 'BCDF-GHJK' }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: { accept: 'text/html' },
    });
    expect(res.status, res.text).toBeLessThan(500);
    expect(res.text).toContain('Connect a device');
  });

  it('a client without the device grant cannot start one', async () => {
    const other = await createClient(realm.host, realm.admin.jar, {
      DisplayName: 'Browser only',
      ClientType: 'Public',
      ConsentType: 'Implicit',
      RedirectUris: ['http://127.0.0.1:9/cb'],
      GrantTypes: ['authorization_code'],
      Scopes: ['openid'],
    });
    const otherConfig = await rp(realm.host, other.ClientId);
    // The engine answers invalid_request here (RFC 8628 leaves the code to the server).
    const failure = await oauthFailure(oidc.initiateDeviceAuthorization(otherConfig, { scope: 'openid' }));
    expect(failure).toMatchObject({ error: 'invalid_request', status: 400 });
    expect(failure.description).toContain('not allowed for this client');
  });
});
