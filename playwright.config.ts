import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

// Browser tests (e2e/ui) against the real server, which the config starts itself: the production
// build when there is one (npm run build), else the TypeScript source through tsx. Every run gets
// a fresh data directory; the tests run the CLI with the same environment (e2e/ui/support/env.ts).
// Chromium is Debian's (apt-get install -y chromium), never a Playwright download.

// Parallel runs in one checkout (each with its own GATEHOUSE_NEXT_DIST_DIR) get their own port.
const distDir = process.env.GATEHOUSE_NEXT_DIST_DIR;
const portOffset = distDir ? 1 + ([...distDir].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % 80) : 0;
const port = Number(process.env.GATEHOUSE_E2E_PORT ?? 3310 + portOffset);
// Evaluated again in every worker: the first evaluation's directory travels to them in the env.
process.env.GATEHOUSE_E2E_PORT = String(port);
process.env.GATEHOUSE_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'gatehouse-ui-e2e-'));
// Mail goes to an SMTP capture on a fixed port (e2e/ui/support/global-setup.ts): the webServer
// starts before globalSetup, so its SMTP_URL cannot wait for a free port to be picked.
process.env.GATEHOUSE_E2E_SMTP_PORT ??= String(port + 1);
process.env.GATEHOUSE_E2E_MAIL_DIR ??= mkdtempSync(join(tmpdir(), 'gatehouse-ui-e2e-mail-'));

// GATEHOUSE_E2E_MODE=dev forces the source (when the build is older than the code), =build the build.
const mode = process.env.GATEHOUSE_E2E_MODE;
const built = mode === 'build' || (mode !== 'dev' && existsSync('dist/server.js') && existsSync('.next/BUILD_ID'));
const serverEnv = {
  PORT: String(port),
  GATEHOUSE_PUBLIC_PORT: String(port),
  GATEHOUSE_DATA_DIR: process.env.GATEHOUSE_E2E_DATA_DIR,
  NODE_ENV: built ? 'production' : 'development',
  // Production requires the encryption key from outside the data; one per run, kept in the env so
  // the workers and the CLI the tests run share it.
  GATEHOUSE_SECRET_KEY: (process.env.GATEHOUSE_E2E_SECRET_KEY ??= randomBytes(32).toString('base64')),
  SMTP_URL: `smtp://127.0.0.1:${process.env.GATEHOUSE_E2E_SMTP_PORT}`,
  // The login-provider pages save a directory on 127.0.0.1 and test its connection (the outbound policy).
  GATEHOUSE_OUTBOUND_ALLOW: '127.0.0.1',
  // A development server gets a build folder of its own: Next allows one dev server per folder,
  // and other people's dev servers may be running in this tree (next.config.mjs).
  ...(built ? {} : { GATEHOUSE_NEXT_DIST_DIR: process.env.GATEHOUSE_NEXT_DIST_DIR ?? '.next-e2e-ui' }),
};

export default defineConfig({
  testDir: 'e2e/ui',
  testMatch: '**/*.spec.ts',
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: built ? 60_000 : 180_000,
  expect: { timeout: built ? 10_000 : 30_000 },
  reporter: [['list']],
  outputDir: join(tmpdir(), `gatehouse-ui-e2e-results-${port}`),
  globalSetup: './e2e/ui/support/global-setup.ts',
  globalTeardown: './e2e/ui/support/global-teardown.ts',
  use: {
    baseURL: `http://localhost:${port}`,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: built ? 'node dist/server.js' : 'npx tsx server.ts',
    url: `http://127.0.0.1:${port}/health`,
    env: serverEnv,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
