import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The unit tests run beside the code in parallel. The HTTP suite drives the real server (started
// once per run by e2e/api/support/global-setup.ts) in two projects: `api`, files that make realms
// of their own and so run two at a time, then `api-exclusive`, files that change what every file
// shares (the control plane and its administrator, platform-wide lists and counts, sign-in limits
// from 127.0.0.1 on the control plane, the CLI, extra servers), one at a time after them.
// `--project api --project api-exclusive` (or `npm run test:api`) runs the whole suite.
const root = fileURLToPath(new URL('./', import.meta.url));

const EXCLUSIVE = [
  'e2e/api/cli/**',
  'e2e/api/health/**',
  'e2e/api/realms/**',
  // Manifests applied and imported across realms through the control plane (it makes and drops realms).
  'e2e/api/manifests/control-plane/**',
  'e2e/api/realm-resolution/**',
  'e2e/api/wire/**',
  'e2e/api/logs/**',
  'e2e/api/account/login-logout-me.test.ts',
  'e2e/api/authz/users-and-permissions.test.ts',
  'e2e/api/invites/admin-invites.test.ts',
  'e2e/api/apps/app-context.test.ts',
  'e2e/api/passkeys/passkeys.test.ts',
  'e2e/api/passwords/mail-failure.test.ts',
  // Extra instances with Redis and PostgreSQL of their own, stopped and killed (issue 14 faults).
  'e2e/api/faults/**',
  // An extra instance behind a trusted proxy.
  'e2e/api/deployment/**',
  // A second server on the shared store.
  'e2e/api/external-identity/saml-browser-binding.test.ts',
  // Two more servers on the shared store and Redis (the hub's fan-out).
  'e2e/api/realtime/hub-redis.test.ts',
];

const api = {
  include: ['e2e/api/**/*.test.ts'],
  environment: 'node',
  globalSetup: ['e2e/api/support/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

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
          ...api,
          name: 'api',
          exclude: ['**/node_modules/**', ...EXCLUSIVE],
          // Files make realms of their own, so they share nothing but the server: two at a time, and
          // a worker keeps its imports from one file to the next (a fresh process per file cost 3-4 s
          // of CPU each, about a tenth of the stage).
          fileParallelism: true,
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          ...api,
          name: 'api-exclusive',
          include: EXCLUSIVE,
          // After the parallel files, one at a time, with the server to themselves.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
