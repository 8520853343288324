import { describe, expect, it } from 'vitest';
import { lastLine, runCli } from '../support/cli';
import { api, CP_HOST, createRealm, expectProblem, signIn, strongPassword, suite, uniqueSlug } from '../support/harness';

// `npx gatehouse recover bootstrap-admin` (CONTRACT.md "Running it", spec 5.8), run beside the
// server with the same environment.
describe('gatehouse recover bootstrap-admin', () => {
  it('prints the control-plane invite URL on the last stdout line', async () => {
    const r = await runCli(suite().env, ['recover', 'bootstrap-admin', '--email', 'cli-cp@example.test', '--username', uniqueSlug('cli')]);
    expect(r.code, r.stderr).toBe(0);
    const url = new URL(lastLine(r.stdout));
    expect(url.protocol).toBe('http:');
    expect(url.hostname).toBe('localhost');
    expect(url.port).toBe(String(suite().port));
    expect(url.pathname).toBe('/bootstrap');
    expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const res = await api(url.host, 'POST', '/api/account/bootstrap-admin', { body: { Token: url.searchParams.get('token'), Password: strongPassword() } });
    expect(res.status, res.text).toBe(200);
    const me = await api(url.host, 'GET', '/api/account/me', { cookie: res.setCookies.map((c) => c.split(';')[0]).join('; ') });
    expect(me.body.Realm).toBe('control');
    expect(me.body.ControlPlanePermissions ?? me.body.Permissions).toContain('realm:admin');
  });

  it('--realm issues the invite on that realm, on its primary domain', async () => {
    const { slug, domain } = await createRealm();
    const r = await runCli(suite().env, ['recover', 'bootstrap-admin', '--email', 'cli-realm@example.test', '--realm', slug]);
    expect(r.code, r.stderr).toBe(0);
    const url = new URL(lastLine(r.stdout));
    expect(url.hostname).toBe(domain);
    // Without --username the e-mail address is the user name.
    const res = await api(url.host, 'POST', '/api/account/bootstrap-admin', { body: { Token: url.searchParams.get('token'), Password: strongPassword() } });
    expect(res.status, res.text).toBe(200);
  });

  it('a new CLI invite revokes the previous one', async () => {
    const { slug } = await createRealm();
    const first = new URL(lastLine((await runCli(suite().env, ['recover', 'bootstrap-admin', '--email', 'a@example.test', '--realm', slug])).stdout));
    const second = new URL(lastLine((await runCli(suite().env, ['recover', 'bootstrap-admin', '--email', 'a@example.test', '--realm', slug])).stdout));
    expectProblem(
      await api(first.host, 'POST', '/api/account/bootstrap-admin', { body: { Token: first.searchParams.get('token'), Password: strongPassword() } }),
      400,
    );
    expect(
      (await api(second.host, 'POST', '/api/account/bootstrap-admin', { body: { Token: second.searchParams.get('token'), Password: strongPassword() } }))
        .status,
    ).toBe(200);
  });

  it('--password sets the administrator directly', async () => {
    const { slug, host } = await createRealm();
    const password = strongPassword();
    const r = await runCli(suite().env, [
      'recover',
      'bootstrap-admin',
      '--email',
      'direct@example.test',
      '--username',
      'direct',
      '--realm',
      slug,
      '--password',
      password,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const { res, jar } = await signIn(host, 'direct', password);
    expect(res.status, res.text).toBe(200);
    const me = await api(host, 'GET', '/api/account/me', { cookie: jar });
    expect(me.body.Permissions).toContain('realm:admin');
    // Running it again resets the password and ends the user's sessions.
    const next = strongPassword();
    expect(
      (await runCli(suite().env, ['recover', 'bootstrap-admin', '--email', 'direct@example.test', '--username', 'direct', '--realm', slug, '--password', next]))
        .code,
    ).toBe(0);
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: jar }), 401);
    expect((await signIn(host, 'direct', password)).res.status).toBe(401);
    expect((await signIn(host, 'direct', next)).res.status).toBe(200);
  });

  it('fails with a non-zero exit for an unknown realm, a bad e-mail or a weak password', async () => {
    for (const args of [
      ['--email', 'x@example.test', '--realm', uniqueSlug('none')],
      ['--email', 'not-an-email'],
      ['--email', 'x@example.test', '--password', 'short'],
    ]) {
      const r = await runCli(suite().env, ['recover', 'bootstrap-admin', ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stdout}`).not.toBe(0);
      expect(r.stdout).not.toMatch(/token=/);
      expect(r.stderr.length).toBeGreaterThan(0);
    }
    expect((await api(CP_HOST, 'GET', '/api/app-info')).status).toBe(200);
  });
});
