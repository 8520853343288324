import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { signIn, uniqueSuffix, urlOn } from './support/env';
import { controlPlaneAdmin, createUser, quietDevReloads, type TestUser } from './support/hosted';

// The sample relying party in examples/nextjs-next-auth (issue 4, Tests): a Next.js app signing in
// with next-auth against the control-plane realm, driven from its own sign-in button to its
// signed-in page. The control plane is used because its domain is plain `localhost`: next-auth
// fetches discovery, the token and userinfo from the issuer on the server side, and Node does not
// resolve `*.localhost` (docs/environment.md).

const EXAMPLE_DIR = resolve('examples/nextjs-next-auth');
const ISSUER = urlOn('localhost', '');

let admin: APIRequestContext;
let user: TestUser;
let app: ChildProcess | undefined;
let appOrigin = '';
let appLog = '';

/** The environment for npm and next in the example, without the npm_* settings of an enclosing `npm test`. */
function exampleEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // An inherited npm_config_* (local prefix among them) would point a nested npm at the repository root.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  // next build and next start run in production; npm ci is told to keep the devDependencies anyway.
  return { ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...extra };
}

/** Runs a command in the example folder; rejects with its output when it fails. */
function run(command: string, args: string[], timeoutMs: number): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: EXAMPLE_DIR, env: exampleEnv(), stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output.slice(-4000)}`))));
  });
}

/** The newest modification time under `path` (node_modules and build output left out). */
function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name === '.next' || name === 'next-env.d.ts' || name.endsWith('.tsbuildinfo')) continue;
    newest = Math.max(newest, newestChange(join(path, name)));
  }
  return newest;
}

/** Installs the example's locked dependencies when missing, and builds it when its sources changed. */
async function prepareExample(): Promise<void> {
  // A fresh clone (CI runs `npm ci && npm test`) has only the repository's own node_modules.
  if (!existsSync(join(EXAMPLE_DIR, 'node_modules/next/package.json'))) await run('npm', ['ci', '--include=dev', '--no-audit', '--no-fund'], 180_000);
  const buildId = join(EXAMPLE_DIR, '.next/BUILD_ID');
  if (existsSync(buildId) && statSync(buildId).mtimeMs > newestChange(EXAMPLE_DIR)) return;
  await run(process.execPath, ['node_modules/next/dist/bin/next', 'build'], 240_000);
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

async function waitForApp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (app?.exitCode !== null && app?.exitCode !== undefined) throw new Error(`the example exited with ${app.exitCode}:\n${appLog}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`the example did not answer ${url} in time:\n${appLog}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test.beforeAll(async () => {
  // Installing and building the example dominate; both are skipped when already done.
  test.setTimeout(420_000);
  const [, port] = await Promise.all([prepareExample(), freePort()]);
  appOrigin = `http://localhost:${port}`;

  admin = await controlPlaneAdmin();
  const created = await admin.post('/api/admin/oauth/clients', {
    data: {
      ClientId: `next-auth-sample-${uniqueSuffix()}`,
      DisplayName: 'next-auth sample',
      ClientType: 'Confidential',
      ConsentType: 'Implicit',
      RedirectUris: [`${appOrigin}/api/auth/callback/gatehouse`],
      GrantTypes: ['authorization_code', 'refresh_token'],
      Scopes: ['openid', 'profile', 'email'],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const client = (await created.json()) as { ClientId: string; ClientSecret?: string };
  if (!client.ClientSecret) throw new Error('a confidential client was created without a secret');
  user = await createUser(admin, 'nextauth');
  // The realm's engine is built on first use: have that happen here rather than inside next-auth's
  // requests to the issuer, which give up after 3.5 seconds.
  expect((await admin.get('/.well-known/openid-configuration')).status()).toBe(200);
  expect((await admin.get('/.well-known/jwks')).status()).toBe(200);

  app = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: EXAMPLE_DIR,
    env: exampleEnv({
      GATEHOUSE_ISSUER: ISSUER,
      GATEHOUSE_CLIENT_ID: client.ClientId,
      GATEHOUSE_CLIENT_SECRET: client.ClientSecret,
      NEXTAUTH_URL: appOrigin,
      NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (c: Buffer) => (appLog = (appLog + c.toString()).slice(-8000));
  app.stdout?.on('data', keep);
  app.stderr?.on('data', keep);
  // The providers endpoint answers only once next-auth's options (the env above) are read.
  await waitForApp(`http://127.0.0.1:${port}/api/auth/providers`, 60_000);
});

test.afterAll(async () => {
  await admin?.dispose();
  if (app && app.exitCode === null) {
    const exited = new Promise((r) => app?.once('exit', r));
    app.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (app.exitCode === null) app.kill('SIGKILL');
  }
});

test.beforeEach(async ({ context }) => {
  await quietDevReloads(context);
});

test.afterEach(async ({}, testInfo) => {
  // next-auth reports a failed callback only in the app's log (the page shows just an error code).
  if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('example app log', { body: appLog, contentType: 'text/plain' });
});

test('the sample app signs in with Gatehouse and shows who signed in, then signs out', async ({ page }) => {
  await page.goto(appOrigin);
  await page.getByRole('button', { name: 'Sign in with Gatehouse' }).click();

  // Gatehouse's hosted sign-in page, on its way back to the engine's interaction.
  await expect(page).toHaveURL(
    (url) => url.origin === ISSUER && url.pathname === '/login' && Boolean(url.searchParams.get('redirect')?.startsWith('/connect/interaction/')),
  );
  // Typing before the form has hydrated would be lost (the development server compiles it first).
  await page.waitForLoadState('networkidle');
  await signIn(page, user.userName, user.password);

  await expect(page).toHaveURL(`${appOrigin}/signed-in`);
  await expect(page.getByRole('heading', { name: 'Signed in' })).toBeVisible();
  // A user made with only a user name has no `name` claim: the profile falls back to preferred_username.
  await expect(page.getByTestId('user-name')).toHaveText(user.userName);
  await expect(page.getByTestId('user-email')).toHaveText(user.email);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${appOrigin}/`);
  await expect(page.getByRole('button', { name: 'Sign in with Gatehouse' })).toBeVisible();
});
