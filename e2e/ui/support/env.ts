import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';

// What the tests share with the server playwright.config.ts started: its port and data directory.
export const PORT = Number(process.env.GATEHOUSE_E2E_PORT ?? 3310);
export const DATA_DIR = process.env.GATEHOUSE_E2E_DATA_DIR ?? '';

/** `http://<host>:<port><path>`; `*.localhost` resolves to loopback in Chromium (docs/environment.md). */
export function urlOn(host: string, path = '/'): string {
  return `http://${host}:${PORT}${path}`;
}

// The CLI's entry point, run with this process's Node.js: `npx gatehouse` costs an npm process
// (about 2 s of CPU) on top of every call.
const CLI = fileURLToPath(new URL('../../../bin/gatehouse.mjs', import.meta.url));

/** Runs `gatehouse ...` with the server's environment and returns stdout. */
export function gatehouse(...args: string[]): Promise<string> {
  if (!DATA_DIR) throw new Error('GATEHOUSE_E2E_DATA_DIR is not set: run through playwright.config.ts');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(PORT),
    GATEHOUSE_PUBLIC_PORT: String(PORT),
    GATEHOUSE_DATA_DIR: DATA_DIR,
    GATEHOUSE_SECRET_KEY: process.env.GATEHOUSE_E2E_SECRET_KEY,
  };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, ...args], { env, timeout: 90_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`gatehouse ${args.join(' ')} failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/** The invite URL the CLI prints on a line of its own (CONTRACT.md). */
export async function bootstrapInviteUrl(email: string, extra: string[] = []): Promise<string> {
  const out = await gatehouse('recover', 'bootstrap-admin', '--email', email, ...extra);
  const line = out
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /^https?:\/\/\S+\/bootstrap\?token=\S+$/.test(l));
  if (!line) throw new Error(`no invite URL in the CLI output:\n${out}`);
  return line;
}

/** A control-plane administrator with a known password, made by the recovery CLI (no token). */
export async function ensureAdmin(userName: string, password: string): Promise<void> {
  await gatehouse('recover', 'bootstrap-admin', '--email', `${userName}@example.test`, '--username', userName, '--password', password);
}

export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
}

/** Fills the sign-in form and submits it. */
export async function signIn(page: Page, userName: string, password: string): Promise<void> {
  await page.getByLabel('User name or e-mail').fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Collects console errors and CSP violations of a page, to assert there were none. */
export function watchConsole(page: Page): () => void {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  // Expected API refusals (401, 404, 409, ...) are logged by the browser as failed loads: only
  // server errors and script errors count.
  return () => expect(problems.filter((p) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(p))).toEqual([]);
}
