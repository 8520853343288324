import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/harness';
import { createClient, issuerOf } from '../support/oauth';
import { browse, oauthRealm, REDIRECT, rp, webClientBody, type OAuthRealm } from './fixtures';

// offline_access without prompt=consent (issue 8 item 14). Most relying-party libraries never send
// prompt=consent; for an Implicit-consent client the administrator approved offline access, so the
// refresh token is issued. An Explicit client keeps the engine's rule (OIDC Core 11): the person
// approves offline access on the consent page, which prompt=consent brings up.
describe('offline access', () => {
  let realm: OAuthRealm;

  beforeAll(async () => {
    realm = await oauthRealm();
  });

  /** The code flow as openid-client builds it, with no prompt unless `params` names one. */
  async function start(config: oidc.Configuration, scope: string, params: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope,
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...params,
    });
    const page = await browse(realm.host, url.pathname + url.search, realm.admin.jar);
    return { page, verifier, state };
  }

  it('an Implicit client asking for openid offline_access without prompt=consent gets a refresh token that works', async () => {
    const client = await createClient(realm.host, realm.admin.jar, webClientBody({ ConsentType: 'Implicit' }));
    const config = await rp(realm.host, client.ClientId, client.ClientSecret);
    const { page, verifier, state } = await start(config, 'openid offline_access');
    expect(page.url.origin + page.url.pathname, page.hops.join(' -> ')).toBe(REDIRECT);
    const tokens = await oidc.authorizationCodeGrant(config, page.url, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.scope?.split(' ')).toContain('offline_access');
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
    expect(refreshed.refresh_token).toBeTruthy();

    // Without offline_access, no refresh token; and prompt=none stays silent (no refresh token either).
    const plain = await start(config, 'openid');
    expect(
      (await oidc.authorizationCodeGrant(config, plain.page.url, { pkceCodeVerifier: plain.verifier, expectedState: plain.state })).refresh_token,
    ).toBeUndefined();
    const silent = await start(config, 'openid offline_access', { prompt: 'none' });
    expect(silent.page.url.searchParams.get('code')).toBeTruthy();
  });

  it('an Implicit client without offline_access among its scopes is not given one', async () => {
    const client = await createClient(realm.host, realm.admin.jar, webClientBody({ ConsentType: 'Implicit', Scopes: ['openid', 'profile'] }));
    const config = await rp(realm.host, client.ClientId, client.ClientSecret);
    const { page, verifier, state } = await start(config, 'openid offline_access');
    expect(page.url.origin + page.url.pathname, page.hops.join(' -> ')).toBe(REDIRECT);
    const tokens = await oidc.authorizationCodeGrant(config, page.url, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.refresh_token).toBeUndefined();
  });

  it('an Explicit client: with prompt=consent the consent page asks for offline access, and the refresh token follows', async () => {
    const client = await createClient(realm.host, realm.admin.jar, webClientBody({ ConsentType: 'Explicit', DisplayName: 'Explicit app' }));
    const config = await rp(realm.host, client.ClientId, client.ClientSecret);
    const { page, verifier, state } = await start(config, 'openid offline_access', { prompt: 'consent' });
    expect(page.url.pathname, page.hops.join(' -> ')).toBe('/consent');
    const consent = await api(realm.host, 'GET', page.url.pathname + page.url.search, { cookie: realm.admin.jar, headers: { accept: 'text/html' } });
    expect(consent.text).toContain('Offline access');
    const uid = page.url.searchParams.get('uid')!;
    const confirmed = await api(realm.host, 'POST', `/connect/interaction/${uid}/confirm`, {
      cookie: realm.admin.jar,
      headers: { origin: issuerOf(realm.host), accept: 'text/html' },
    });
    const back = await browse(realm.host, confirmed.headers.location!, realm.admin.jar);
    const tokens = await oidc.authorizationCodeGrant(config, back.url, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.refresh_token).toBeTruthy();
  });
});
