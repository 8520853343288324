import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Two suites (ARCHITECTURE.md "Tests"): `unit` runs beside the code in parallel; `api` drives the
// real server over HTTP, one file at a time because the files share a server and its databases.
const root = fileURLToPath(new URL('./', import.meta.url));

export default defineConfig({
  // The tsconfig `@/*` path alias; a regex so that scoped packages (`@prisma/...`) are untouched.
  resolve: { alias: [{ find: /^@\//, replacement: root }] },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'app/**/*.test.ts', 'components/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['e2e/api/**/*.test.ts'],
          environment: 'node',
          // Starts the real server once per run on a fresh store (e2e/api/support/global-setup.ts).
          globalSetup: ['e2e/api/support/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
