import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli';
import { api, realmWithAdmin, suite, type SignedIn } from '../support/harness';
import { repoRoot } from '../support/server-process';

// `npx gatehouse realm export --realm S` and `npx gatehouse realm apply --realm S FILE|- [--prune]
// [--dry-run]` beside the running server: the manifest on stdout, the plan as apply answers it, and
// the exit codes a pipeline gates on (0 applied or no drift, 1 refused, 2 drift found by a dry run).

function cliWithStdin(args: string[], input: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'gatehouse.mjs'), ...args], { cwd: repoRoot, env: suite().env as NodeJS.ProcessEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('gatehouse realm export / apply', () => {
  let slug: string;
  let host: string;
  let admin: SignedIn;
  let dir: string;
  const cli = (...args: string[]) => runCli(suite().env, args);

  beforeAll(async () => {
    ({ slug, host, admin } = await realmWithAdmin());
    dir = await mkdtemp(join(tmpdir(), 'gatehouse-manifest-'));
  });

  it('exports the realm as the export endpoint does', async () => {
    const made = await api(host, 'POST', '/api/group', { cookie: admin.jar, body: { Name: 'Support' } });
    expect(made.status).toBe(201);
    const r = await cli('realm', 'export', '--realm', slug);
    expect(r.code, r.stderr).toBe(0);
    const printed = JSON.parse(r.stdout);
    const served = await api(host, 'GET', '/api/admin/realm-config/export', { cookie: admin.jar });
    expect(printed).toEqual(served.body);
    expect(printed.Groups.map((g: any) => g.Name)).toEqual(['Support']);
  });

  it('exit 2 when a dry run finds drift (nothing written), 0 when applied, 0 with no drift', async () => {
    const manifest = {
      Version: 1,
      Realm: { DisplayName: 'CLI realm' },
      Apps: [{ Slug: 'shop', DisplayName: 'Shop', PermissionCatalog: [{ Name: 'orders:read' }] }],
      Roles: [{ App: 'shop', Name: 'Clerk', Permissions: ['orders:read'] }],
      Groups: [{ Name: 'Clerks', Roles: [{ App: 'shop', Name: 'Clerk' }] }],
      OAuthClients: [{ ClientId: 'till', DisplayName: 'Till', ClientType: 'Confidential', GrantTypes: ['client_credentials'] }],
    };
    const file = join(dir, 'realm.json');
    await writeFile(file, JSON.stringify(manifest));

    const dry = await cli('realm', 'apply', '--realm', slug, file, '--prune', '--dry-run');
    expect(dry.code, dry.stderr).toBe(2);
    const plan = JSON.parse(dry.stdout);
    expect(plan).toMatchObject({
      Created: ['app:shop', 'role:shop/Clerk', 'group:Clerks', 'oauth-client:till'],
      Updated: ['realm:profile'],
      Deleted: ['group:Support'],
    });
    expect((await api(host, 'GET', '/api/admin/realm-config/export', { cookie: admin.jar })).body.Groups.map((g: any) => g.Name)).toEqual(['Support']);

    // `--prune FILE` (the flag before the file) reads the same.
    const applied = await cli('realm', 'apply', '--realm', slug, '--prune', file);
    expect(applied.code, applied.stderr).toBe(0);
    const answer = JSON.parse(applied.stdout);
    expect(answer.Deleted).toEqual(['group:Support']);
    expect(answer.ClientSecrets).toEqual([{ ClientId: 'till', ClientSecret: expect.any(String) }]);
    const after = (await api(host, 'GET', '/api/admin/realm-config/export', { cookie: admin.jar })).body;
    expect(after.Groups.map((g: any) => g.Name)).toEqual(['Clerks']);
    expect(after.Realm.DisplayName).toBe('CLI realm');

    const again = await cli('realm', 'apply', '--realm', slug, file, '--prune', '--dry-run');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ Created: [], Updated: [], Deleted: [] });
  });

  it('reads the manifest from standard input with -', async () => {
    const exported = await cli('realm', 'export', '--realm', slug);
    const r = await cliWithStdin(['realm', 'apply', '--realm', slug, '-', '--dry-run'], exported.stdout);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).Created).toEqual([]);
  });

  it('exit 1 on a validation error, with JSON pointers on stderr, and nothing changed', async () => {
    const before = (await api(host, 'GET', '/api/admin/realm-config/export', { cookie: admin.jar })).body;
    const file = join(dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify({ Version: 1, Realm: { DisplayName: 'X' }, Groups: [{ Name: 'A' }, { Name: 'B', Roles: [{ App: 'shop', Name: 'Ghost' }] }] }),
    );
    const r = await cli('realm', 'apply', '--realm', slug, file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Validation.Failed');
    expect(r.stderr).toMatch(/^\/Groups\/1\/Roles\/0: /m);
    expect(r.stdout).toBe('');
    const notJson = join(dir, 'broken.json');
    await writeFile(notJson, '{ "Version": 1,');
    expect((await cli('realm', 'apply', '--realm', slug, notJson)).code).toBe(1);
    expect((await api(host, 'GET', '/api/admin/realm-config/export', { cookie: admin.jar })).body).toEqual(before);
  });
});
