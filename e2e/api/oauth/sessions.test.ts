import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, expectProblem, signIn } from '../support/harness';
import { createClient } from '../support/oauth';
import { codeFlowTokens, oauthRealm, rp, webClientBody, type OAuthRealm } from './fixtures';

// Sessions (spec 4.6, issue 4.7): browser sessions and OAuth client sessions listed together;
// revoking a client session revokes its token family; "sign out everywhere" ends all of them.
describe('sessions', () => {
  let realm: OAuthRealm;
  let config: oidc.Configuration;

  beforeAll(async () => {
    realm = await oauthRealm();
    const client = await createClient(realm.host, realm.admin.jar, webClientBody({ ClientId: 'sessions-app' }));
    config = await rp(realm.host, client.ClientId, client.ClientSecret);
  });

  const refreshFails = async (refreshToken: string) => expect(oidc.refreshTokenGrant(config, refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });

  it('needs a signed-in person', async () => {
    expectProblem(await api(realm.host, 'GET', '/api/auth/sessions'), 401);
  });

  it('lists browser and client sessions; a client session is revoked with its tokens', async () => {
    const { jar } = await signIn(realm.host, realm.admin.userName, realm.admin.password);
    const tokens = await codeFlowTokens(realm.host, config, jar, 'openid offline_access');
    const list = await api(realm.host, 'GET', '/api/auth/sessions', { cookie: jar });
    expect(list.status, list.text).toBe(200);
    expect(list.body.Sessions.filter((s: { IsCurrent: boolean }) => s.IsCurrent)).toHaveLength(1);
    expect(list.body.Sessions.length).toBeGreaterThanOrEqual(2); // the bootstrap session and this one
    const mine = list.body.ClientSessions.find((c: { ClientId: string }) => c.ClientId === 'sessions-app');
    expect(mine).toMatchObject({ ClientName: 'Web app' });
    expect(mine.Scopes).toEqual(expect.arrayContaining(['openid', 'offline_access']));

    const del = await api(realm.host, 'DELETE', `/api/auth/sessions/client/${mine.Id}`, { cookie: jar });
    expect(del.status, del.text).toBe(204);
    await refreshFails(tokens.refresh_token!);
    expectProblem(await api(realm.host, 'DELETE', `/api/auth/sessions/client/${mine.Id}`, { cookie: jar }), 404, 'Session.NotFound');
  });

  it('revokes another browser session, or all the others; not the current one that way', async () => {
    const a = await signIn(realm.host, realm.admin.userName, realm.admin.password);
    const b = await signIn(realm.host, realm.admin.userName, realm.admin.password);
    const list = (await api(realm.host, 'GET', '/api/auth/sessions', { cookie: a.jar })).body;
    const current = list.Sessions.find((s: { IsCurrent: boolean }) => s.IsCurrent);
    expectProblem(await api(realm.host, 'DELETE', `/api/auth/sessions/${current.Id}`, { cookie: a.jar }), 409, 'Session.IsCurrent');
    const bId = (await api(realm.host, 'GET', '/api/auth/sessions', { cookie: b.jar })).body.Sessions.find((s: { IsCurrent: boolean }) => s.IsCurrent).Id;
    expect((await api(realm.host, 'DELETE', `/api/auth/sessions/${bId}`, { cookie: a.jar })).status).toBe(204);
    expectProblem(await api(realm.host, 'GET', '/api/account/me', { cookie: b.jar }), 401);

    const c = await signIn(realm.host, realm.admin.userName, realm.admin.password);
    expect((await api(realm.host, 'DELETE', '/api/auth/sessions/others', { cookie: a.jar })).status).toBe(204);
    expectProblem(await api(realm.host, 'GET', '/api/account/me', { cookie: c.jar }), 401);
    expect((await api(realm.host, 'GET', '/api/account/me', { cookie: a.jar })).status).toBe(200);
  });

  it('sign out everywhere ends this browser, the others and every client session', async () => {
    const a = await signIn(realm.host, realm.admin.userName, realm.admin.password);
    const b = await signIn(realm.host, realm.admin.userName, realm.admin.password);
    const tokens = await codeFlowTokens(realm.host, config, b.jar, 'openid offline_access');
    const res = await api(realm.host, 'DELETE', '/api/auth/sessions', { cookie: a.jar });
    expect(res.status, res.text).toBe(204);
    expect(res.setCookies.join(';')).toMatch(/gatehouse_session=;/);
    expectProblem(await api(realm.host, 'GET', '/api/account/me', { cookie: a.jar }), 401);
    expectProblem(await api(realm.host, 'GET', '/api/account/me', { cookie: b.jar }), 401);
    await refreshFails(tokens.refresh_token!);
  });
});
