import { describe, expect, it } from 'vitest';
import { adminCookie, api, CP_HOST, createRealm } from '../support/harness';

// GET /api/app-info: anonymous realm metadata (spec 5.3).
describe('app-info', () => {
  it('answers anonymously on the control plane', async () => {
    const res = await api(CP_HOST, 'GET', '/api/app-info');
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^application\/json/);
    expect(res.body.Realm).toBe('control');
    expect(res.body.IsControlPlane).toBe(true);
    expect(res.body.PrimaryDomain).toBe('localhost');
    expect(res.body.RegistrationFields?.Email).toBe('Required');
    expect(res.setCookies).toEqual([]);
  });

  it("answers each realm's own data on its host", async () => {
    const { host, slug } = await createRealm({ DisplayName: 'Shown Name', Description: 'Shown description' });
    const res = await api(host, 'GET', '/api/app-info');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Realm: slug, DisplayName: 'Shown Name', IsControlPlane: false, PrimaryDomain: `${slug}.localhost` });
    for (const policy of ['Username', 'Firstname', 'Lastname']) expect(['Off', 'Optional', 'Required']).toContain(res.body.RegistrationFields[policy]);
    expect(['Off', 'JitOnOtp', 'ExplicitEndpoint']).toContain(res.body.SelfRegistration.Posture);
  });

  it('answers the same with or without a session and leaks no secrets', async () => {
    const anon = await api(CP_HOST, 'GET', '/api/app-info');
    const signed = await api(CP_HOST, 'GET', '/api/app-info', { cookie: adminCookie() });
    expect(signed.body).toEqual(anon.body);
    expect(anon.text).not.toMatch(/databaseName|gh_r_|passwordHash|ClientSecret|\$argon2|postgres:\/\//i);
  });
});
