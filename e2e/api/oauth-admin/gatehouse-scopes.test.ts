import { beforeAll, describe, expect, it } from 'vitest';
import { authorize, MANAGEMENT_SCOPE, oauthRealm, REDIRECT, rp, webClientBody, type OAuthRealm } from '../oauth/fixtures';
import { api, expectProblem, type CookieJar } from '../support/harness';
import { createClient } from '../support/oauth';
import { grant, makeUser, signedIn } from '../users/fixtures';

// Gatehouse's own scopes on OAuth clients (issue 8 item 4): oauth-client:write alone does not give
// them out, nor change (redirect URIs, consent type, secret) a client that carries them; each needs
// its own permission (gatehouse.management: realm:admin; invite:read / invite:write:
// invite-code:read / invite-code:write; gatehouse.passkeys: user:write). And the person always
// approves them on the consent page, even for an Implicit-consent client.
const CLIENTS = '/api/admin/oauth/clients';

describe("Gatehouse's own scopes on clients", () => {
  let realm: OAuthRealm;
  let clientWriter: CookieJar;
  let inviteWriter: CookieJar;

  const count = async () => (await api(realm.host, 'GET', `${CLIENTS}?pageSize=200`, { cookie: realm.admin.jar })).body.totalCount as number;

  beforeAll(async () => {
    realm = await oauthRealm();
    const writer = await makeUser(realm.host, realm.admin.jar);
    await grant(realm.host, realm.admin.jar, ['oauth-client:write', 'oauth-client:read'], writer.id);
    clientWriter = await signedIn(realm.host, writer);
    const inviter = await makeUser(realm.host, realm.admin.jar);
    await grant(realm.host, realm.admin.jar, ['oauth-client:write', 'oauth-client:read', 'invite-code:write'], inviter.id);
    inviteWriter = await signedIn(realm.host, inviter);
  });

  it('oauth-client:write alone cannot create a client with any of them', async () => {
    const before = await count();
    for (const [scope, permission] of [
      [MANAGEMENT_SCOPE, 'realm:admin'],
      ['invite:write', 'invite-code:write'],
      ['invite:read', 'invite-code:read'],
      ['gatehouse.passkeys', 'user:write'],
    ]) {
      const res = await api(realm.host, 'POST', CLIENTS, { cookie: clientWriter, body: webClientBody({ Scopes: ['openid', scope] }) });
      expectProblem(res, 403, 'OAuthClient.GatehouseScopeForbidden');
      expect(res.body.detail).toContain(permission);
    }
    // A client-credentials client that would mint an App's invite codes, too.
    const cc = await api(realm.host, 'POST', CLIENTS, {
      cookie: clientWriter,
      body: {
        DisplayName: 'Minter',
        ClientType: 'Confidential',
        GrantTypes: ['client_credentials'],
        Scopes: ['invite:write'],
        AppId: '00000000-0000-4000-8000-000000000001',
      },
    });
    expectProblem(cc, 403, 'OAuthClient.GatehouseScopeForbidden');
    expect(await count()).toBe(before);
    // Without them it still works.
    expect((await api(realm.host, 'POST', CLIENTS, { cookie: clientWriter, body: webClientBody() })).status).toBe(201);
  });

  it('oauth-client:write alone can neither add them nor change or re-key a client that has them', async () => {
    const mine = await createClient(realm.host, clientWriter, webClientBody({ DisplayName: 'Mine' }));
    expectProblem(
      await api(realm.host, 'PUT', `${CLIENTS}/${mine.Id}`, { cookie: clientWriter, body: { Scopes: ['openid', MANAGEMENT_SCOPE] } }),
      403,
      'OAuthClient.GatehouseScopeForbidden',
    );

    const admins = await createClient(realm.host, realm.admin.jar, webClientBody({ DisplayName: 'Admin tool', Scopes: ['openid', MANAGEMENT_SCOPE] }));
    const hijack = await api(realm.host, 'PUT', `${CLIENTS}/${admins.Id}`, { cookie: clientWriter, body: { RedirectUris: ['https://attacker.example/cb'] } });
    expectProblem(hijack, 403, 'OAuthClient.GatehouseScopeForbidden');
    expectProblem(
      await api(realm.host, 'POST', `${CLIENTS}/${admins.Id}/regenerate-secret`, { cookie: clientWriter }),
      403,
      'OAuthClient.GatehouseScopeForbidden',
    );
    const stored = await api(realm.host, 'GET', `${CLIENTS}/${admins.Id}`, { cookie: realm.admin.jar });
    expect(stored.body.RedirectUris).toEqual([REDIRECT]);
    expect(stored.body.Scopes).toEqual(['openid', MANAGEMENT_SCOPE]);
    // The administrator may.
    expect((await api(realm.host, 'PUT', `${CLIENTS}/${admins.Id}`, { cookie: realm.admin.jar, body: { DisplayName: 'Admin tool 2' } })).status).toBe(200);
  });

  it('invite-code:write admits the invite scopes, not gatehouse.management', async () => {
    const cc = await api(realm.host, 'POST', CLIENTS, {
      cookie: inviteWriter,
      body: {
        DisplayName: 'Minter',
        ClientType: 'Confidential',
        GrantTypes: ['client_credentials'],
        Scopes: ['invite:write'],
        AppId: '00000000-0000-4000-8000-000000000001',
      },
    });
    expect(cc.status, cc.text).toBe(201);
    expectProblem(
      await api(realm.host, 'PUT', `${CLIENTS}/${cc.body.Id}`, { cookie: inviteWriter, body: { Scopes: ['invite:write', MANAGEMENT_SCOPE] } }),
      403,
      'OAuthClient.GatehouseScopeForbidden',
    );
  });

  it('an Implicit-consent client asking for a Gatehouse scope goes to the consent page, which names it', async () => {
    const implicit = await createClient(
      realm.host,
      realm.admin.jar,
      webClientBody({ DisplayName: 'Implicit admin tool', ConsentType: 'Implicit', Scopes: ['openid', MANAGEMENT_SCOPE] }),
    );
    const config = await rp(realm.host, implicit.ClientId, implicit.ClientSecret);
    const a = await authorize(realm.host, config, realm.admin.jar, `openid ${MANAGEMENT_SCOPE}`);
    expect(a.callback.pathname, a.page.hops.join(' -> ')).toBe('/consent');
    const page = await api(realm.host, 'GET', `${a.callback.pathname}${a.callback.search}`, { cookie: realm.admin.jar, headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Manage this realm');
    expect(page.text).toContain('Implicit admin tool');

    // prompt=none cannot skip it either.
    const silent = await authorize(realm.host, config, realm.admin.jar, `openid ${MANAGEMENT_SCOPE}`, { prompt: 'none' });
    expect(silent.callback.origin + silent.callback.pathname).toBe(REDIRECT);
    expect(silent.callback.searchParams.get('error')).toBe('consent_required');
    expect(silent.callback.searchParams.get('code')).toBeNull();

    // An Implicit client asking only for the person's own scopes still needs no page.
    const plain = await authorize(realm.host, config, realm.admin.jar, 'openid');
    expect(plain.callback.origin + plain.callback.pathname).toBe(REDIRECT);
    expect(plain.callback.searchParams.get('code')).toBeTruthy();
  });
});
