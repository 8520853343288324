import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExtraServer, type ExtraServer } from '../support/extra-server';
import { api, bootstrapAdmin, createRealm, expectProblem, type SignedIn } from '../support/harness';

// POST /api/admin/realms/{slug}/transfer-control-plane (spec 3.2, 4.8). Moving the control plane
// changes which host administers realms, so this runs on a server with a store of its own.
describe('transfer the control plane', () => {
  let server: ExtraServer;
  let cp: SignedIn;
  const opts = () => ({ port: server.port });
  const cpHost = () => `localhost:${server.port}`;

  beforeAll(async () => {
    server = await startExtraServer({ name: 'transfer', storage: 'fresh' });
    cp = await bootstrapAdmin(undefined, { port: server.port, env: server.env });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is idempotent on the current holder (200, unchanged)', async () => {
    const res = await api(cpHost(), 'POST', '/api/admin/realms/control/transfer-control-plane', { cookie: cp.jar, ...opts() });
    expect(res.status, res.text).toBe(200);
    expect(res.body.Slug).toBe('control');
    expect(res.body.IsControlPlane).toBe(true);
    expect((await api(cpHost(), 'GET', '/api/admin/realms', { cookie: cp.jar, ...opts() })).status).toBe(200);
  });

  it('answers 404 for an unknown target', async () => {
    const res = await api(cpHost(), 'POST', '/api/admin/realms/no-such-realm-x/transfer-control-plane', { cookie: cp.jar, ...opts() });
    expectProblem(res, 404);
  });

  it('answers 400 Realm.TargetInactive for an inactive target, and nothing moves', async () => {
    const target = await createRealm({}, { cookie: cp.jar.toString(), port: server.port, host: cpHost() });
    const off = await api(cpHost(), 'PATCH', `/api/admin/realms/${target.slug}`, { body: { IsActive: false }, cookie: cp.jar, ...opts() });
    expect(off.status).toBe(200);
    const res = await api(cpHost(), 'POST', `/api/admin/realms/${target.slug}/transfer-control-plane`, { cookie: cp.jar, ...opts() });
    expectProblem(res, 400, 'Realm.TargetInactive');
    const control = await api(cpHost(), 'GET', '/api/admin/realms/control', { cookie: cp.jar, ...opts() });
    expect(control.body.IsControlPlane).toBe(true);
  });

  it('needs a session', async () => {
    const res = await api(cpHost(), 'POST', '/api/admin/realms/control/transfer-control-plane', opts());
    expectProblem(res, 401);
  });

  it('moves the flag: the old host answers 404 on realm routes, the new one 200; and back again', async () => {
    const target = await createRealm({}, { cookie: cp.jar.toString(), port: server.port, host: cpHost() });
    const targetAdmin = await bootstrapAdmin(target.slug, { port: server.port, env: server.env });

    const res = await api(cpHost(), 'POST', `/api/admin/realms/${target.slug}/transfer-control-plane`, { cookie: cp.jar, ...opts() });
    expect(res.status, res.text).toBe(200);
    expect(res.body.Slug).toBe(target.slug);
    expect(res.body.IsControlPlane).toBe(true);
    expect(res.body.IsActive).toBe(true);

    // The calling (old) host: the realm surface is hidden.
    expectProblem(await api(cpHost(), 'GET', '/api/admin/realms', { cookie: cp.jar, ...opts() }), 404, null);
    expectProblem(await api(cpHost(), 'POST', `/api/admin/realms/control/transfer-control-plane`, { cookie: cp.jar, ...opts() }), 404, null);
    const oldInfo = await api(cpHost(), 'GET', '/api/app-info', opts());
    expect(oldInfo.status).toBe(200);
    expect(oldInfo.body.IsControlPlane).toBe(false);

    // The new holder: its realm:admin users administer realms.
    const list = await api(target.host, 'GET', '/api/admin/realms', { cookie: targetAdmin.jar, ...opts() });
    expect(list.status, list.text).toBe(200);
    const flags = Object.fromEntries(list.body.items.map((r: { Slug: string; IsControlPlane: boolean }) => [r.Slug, r.IsControlPlane]));
    expect(flags).toMatchObject({ control: false, [target.slug]: true });
    expect(Object.values(flags).filter(Boolean)).toHaveLength(1);
    const newInfo = await api(target.host, 'GET', '/api/app-info', opts());
    expect(newInfo.body.IsControlPlane).toBe(true);
    const me = await api(target.host, 'GET', '/api/account/me', { cookie: targetAdmin.jar, ...opts() });
    expect(me.body.IsControlPlane).toBe(true);

    // The former control plane can now be deactivated; the holder cannot.
    const cannot = await api(target.host, 'PATCH', `/api/admin/realms/${target.slug}`, { body: { IsActive: false }, cookie: targetAdmin.jar, ...opts() });
    expectProblem(cannot, cannot.status, 'Realm.CannotDeactivateControlPlane');

    // Back to the original realm, from the new control plane's host.
    const back = await api(target.host, 'POST', '/api/admin/realms/control/transfer-control-plane', { cookie: targetAdmin.jar, ...opts() });
    expect(back.status, back.text).toBe(200);
    expect(back.body.Slug).toBe('control');
    expect(back.body.IsControlPlane).toBe(true);
    expect((await api(cpHost(), 'GET', '/api/admin/realms', { cookie: cp.jar, ...opts() })).status).toBe(200);
    expectProblem(await api(target.host, 'GET', '/api/admin/realms', { cookie: targetAdmin.jar, ...opts() }), 404, null);
  });
});
