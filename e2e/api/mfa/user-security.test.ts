import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, expectProblem, realmWithAdmin, type SignedIn } from '../support/harness';
import { grant, makeUser, signedIn } from '../users/fixtures';
import { enrolTotp, expectLogged, passwordStep, patchSettings, ROOMY_SOURCE_LIMITS } from './fixtures';

// Administrators and a user's sign-in security (spec 4.7 "User administration": security-info and
// the secure-setup grace period), all with user:write and the no-escalation rule.
let host: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
  await patchSettings(host, admin.jar, { RateLimits: ROOMY_SOURCE_LIMITS });
});

const info = (id: string, cookie = admin.jar) => api(host, 'GET', `/api/admin/users/${id}/security-info`, { cookie });
const DAY = 86_400_000;

describe('security-info', () => {
  it('a new user: password only, nothing required, nulls omitted', async () => {
    const user = await makeUser(host, admin.jar);
    const res = await info(user.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      HasPassword: true,
      TwoFactorEnabled: false,
      HasAuthenticator: false,
      PasskeyCount: 0,
      TwoFactorPolicy: 'Default',
      TwoFactorRequired: false,
      GracePeriodActive: false,
      EmailConfirmed: false,
    });
  });

  it('follows enrolment and sign-ins', async () => {
    const user = await makeUser(host, admin.jar);
    await enrolTotp(host, await signedIn(host, user));
    const res = await info(user.id);
    expect(res.body).toMatchObject({ TwoFactorEnabled: true, HasAuthenticator: true });
    expect(Math.abs(new Date(res.body.LastLoginAt).getTime() - Date.now())).toBeLessThan(120_000);
  });

  it('the realm requirement makes 2FA required unless the user is exempt', async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, a.jar, { TwoFactor: { Required: true, GracePeriodDays: 3 } });
    const user = await makeUser(realm.host, a.jar);
    const get = () => api(realm.host, 'GET', `/api/admin/users/${user.id}/security-info`, { cookie: a.jar });
    expect((await get()).body).toMatchObject({ TwoFactorPolicy: 'Default', TwoFactorRequired: true, GracePeriodActive: false });
    // The first sign-in starts the grace period.
    const { res } = await passwordStep(realm.host, user.userName, user.password);
    expect(res.body).toMatchObject({ authenticated: true, requiresSecureSetup: true, gracePeriod: true });
    const started = (await get()).body;
    expect(started.GracePeriodActive).toBe(true);
    expect(Math.abs(new Date(started.SecureSetupDueAt).getTime() - (Date.now() + 3 * DAY))).toBeLessThan(120_000);
    const exempt = await api(realm.host, 'PUT', `/api/admin/users/${user.id}/grace/policy`, { cookie: a.jar, body: { Policy: 'Exempt' } });
    expect(exempt.status, exempt.text).toBe(200);
    expect(exempt.body).toMatchObject({ TwoFactorPolicy: 'Exempt', TwoFactorRequired: false, GracePeriodActive: false });
  });

  it('needs a session (401) and user:write (403); an unknown user is 404', async () => {
    const user = await makeUser(host, admin.jar);
    expectProblem(await api(host, 'GET', `/api/admin/users/${user.id}/security-info`), 401);
    const reader = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['user:read'], reader.id);
    expectProblem(await info(user.id, await signedIn(host, reader)), 403, 'Auth.Forbidden');
    expectProblem(await info('00000000-0000-4000-8000-00000000dead'), 404, 'User.NotFound');
  });
});

describe('grace period', () => {
  it('PUT policy sets Required, Exempt and Default; anything else is 400', async () => {
    const user = await makeUser(host, admin.jar);
    for (const Policy of ['Required', 'Exempt', 'Default']) {
      const res = await api(host, 'PUT', `/api/admin/users/${user.id}/grace/policy`, { cookie: admin.jar, body: { policy: Policy } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.TwoFactorPolicy).toBe(Policy);
      expect(res.body.TwoFactorRequired).toBe(Policy === 'Required');
    }
    expectProblem(
      await api(host, 'PUT', `/api/admin/users/${user.id}/grace/policy`, { cookie: admin.jar, body: { Policy: 'Sometimes' } }),
      400,
      'Validation.Failed',
    );
    expectProblem(await api(host, 'PUT', `/api/admin/users/${user.id}/grace/policy`, { cookie: admin.jar, body: {} }), 400, 'Validation.Failed');
    await expectLogged(host, admin.jar, 'user.two-factor-policy-changed');
  });

  it('POST reset sets the deadline to now + the grace days; DELETE clears it and the next sign-in starts afresh', async () => {
    const user = await makeUser(host, admin.jar);
    await api(host, 'PUT', `/api/admin/users/${user.id}/grace/policy`, { cookie: admin.jar, body: { Policy: 'Required' } });
    const reset = await api(host, 'POST', `/api/admin/users/${user.id}/grace/reset`, { cookie: admin.jar });
    expect(reset.status, reset.text).toBe(200);
    expect(Math.abs(new Date(reset.body.SecureSetupDueAt).getTime() - (Date.now() + 14 * DAY))).toBeLessThan(120_000);
    expect(reset.body.GracePeriodActive).toBe(true);
    const del = await api(host, 'DELETE', `/api/admin/users/${user.id}/grace`, { cookie: admin.jar });
    expect(del.status, del.text).toBe(204);
    const after = (await info(user.id)).body;
    expect(after.SecureSetupDueAt).toBeUndefined();
    expect(after.GracePeriodActive).toBe(false);
    const { res } = await passwordStep(host, user.userName, user.password);
    expect(res.body).toMatchObject({ authenticated: true, requiresSecureSetup: true, gracePeriod: true });
    expect((await info(user.id)).body.GracePeriodActive).toBe(true);
    await expectLogged(host, admin.jar, 'user.grace-period-reset', (e) => e.UserName === admin.userName);
    await expectLogged(host, admin.jar, 'user.grace-period-cleared');
  });

  it('a reset deadline in the past blocks the sign-in until 2FA is set up', async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, a.jar, { TwoFactor: { GracePeriodDays: 0 } });
    const user = await makeUser(realm.host, a.jar);
    await api(realm.host, 'PUT', `/api/admin/users/${user.id}/grace/policy`, { cookie: a.jar, body: { Policy: 'Required' } });
    await api(realm.host, 'POST', `/api/admin/users/${user.id}/grace/reset`, { cookie: a.jar });
    const { res } = await passwordStep(realm.host, user.userName, user.password);
    expect(res.body).toEqual({ requiresSecureSetup: true, gracePeriod: false });
  });

  it('needs user:write, and every permission the target holds (no escalation)', async () => {
    const helpdesk = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['user:read', 'user:write'], helpdesk.id);
    const jar = await signedIn(host, helpdesk);
    const plain = await makeUser(host, admin.jar);
    expect((await api(host, 'POST', `/api/admin/users/${plain.id}/grace/reset`, { cookie: jar })).status).toBe(200);
    expect((await info(admin.userId!, jar)).status).toBe(200);
    for (const [method, path, body] of [
      ['PUT', 'grace/policy', { Policy: 'Exempt' }],
      ['POST', 'grace/reset', undefined],
      ['DELETE', 'grace', undefined],
    ] as const) {
      expectProblem(await api(host, method, `/api/admin/users/${admin.userId}/${path}`, { cookie: jar, body }), 403, 'Auth.Forbidden');
    }
    const reader = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['user:read'], reader.id);
    expectProblem(await api(host, 'DELETE', `/api/admin/users/${plain.id}/grace`, { cookie: await signedIn(host, reader) }), 403, 'Auth.Forbidden');
    expectProblem(await api(host, 'DELETE', '/api/admin/users/00000000-0000-4000-8000-00000000dead/grace', { cookie: admin.jar }), 404, 'User.NotFound');
  });
});
