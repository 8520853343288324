// The architecture rules of docs/architecture.md ("Layers", "Data access") as ESLint configuration.
// Each zone says which code may not import which: arrows point down only.
import { browserSafe } from './browser-safe.mjs';
import { conceptCycles } from './concept-cycles.mjs';

const LEAVES = ['lib/db', 'lib/realm', 'lib/crypto', 'lib/config', 'lib/errors', 'lib/log', 'lib/runtime', 'lib/web', 'lib/outbound'];
const SERVICES = ['lib/authz', 'lib/auth', 'lib/mail', 'lib/rate-limit', 'lib/events'];
const DOMAIN = ['lib/domain'];
/** Beside each other at the top of lib: each may use the domain and below, none of the others. */
const DOORS = ['lib/http', 'lib/oidc', 'lib/cli', 'lib/startup', 'lib/realtime'];
const TOP = ['app', 'components', 'server.ts', 'proxy.ts'];
const ABOVE_DOMAIN = [...DOORS, 'lib/api', ...TOP];

const zone = (target, from, message) => ({ target, from, message });
const layerZones = [
  zone(LEAVES, [...SERVICES, ...DOMAIN, ...ABOVE_DOMAIN], 'a leaf (db, realm, crypto, config, errors, log, runtime, web, outbound) imports nothing above it'),
  zone(
    SERVICES,
    [...DOMAIN, ...ABOVE_DOMAIN],
    'authz, auth, mail, rate-limit and events sit below the domain: the domain operation reads what they need and passes it in',
  ),
  zone(DOMAIN, ABOVE_DOMAIN, 'domain code never imports the HTTP layer, the API catalog, the OAuth engine, the CLI or the app'),
  zone(
    'lib/http',
    ['lib/api', 'lib/oidc', 'lib/cli', 'lib/startup', 'lib/realtime', ...TOP],
    'lib/http is the route wrapper: what it needs from above is passed in',
  ),
  zone(
    'lib/oidc',
    ['lib/http', 'lib/api', 'lib/cli', 'lib/startup', 'lib/realtime', ...TOP],
    'lib/oidc sits beside lib/http: shared pieces live in lib/web or the domain',
  ),
  zone('lib/cli', ['lib/http', 'lib/api', 'lib/oidc', 'lib/realtime', ...TOP], 'the CLI sits beside lib/http and lib/oidc'),
  zone('lib/startup', ['lib/http', 'lib/api', 'lib/oidc', 'lib/cli', 'lib/realtime', ...TOP], 'start-up wiring sits beside the doors it starts'),
  zone(
    'lib/realtime',
    ['lib/http', 'lib/api', 'lib/oidc', 'lib/cli', 'lib/startup', ...TOP],
    'the real-time hub sits beside lib/http: shared pieces live in lib/web or the domain',
  ),
  zone('lib/api', TOP, 'lib/api declares endpoints; app/ binds them, not the other way round'),
];

/** Files that may name credential material (digests, hashes, sealed keys): they set or verify it. */
export const CREDENTIAL_MODULES = [
  'lib/auth/**',
  'lib/domain/passwords/**',
  'lib/domain/one-time-secrets/**',
  'lib/domain/sessions/**',
  'lib/domain/mfa/**',
  'lib/domain/passkeys/**',
  'lib/domain/signing-keys/**',
  'lib/domain/invites/**',
  'lib/domain/invite-codes/**',
  'lib/domain/registration/**',
  'lib/domain/oauth-clients/client-secret.ts',
  'lib/domain/oauth-clients/create-client.ts',
  'lib/domain/oauth-clients/regenerate-client-secret.ts',
  'lib/domain/oauth-clients/registered-client.ts',
  'lib/domain/service-accounts/create-credential.ts',
  'lib/domain/service-accounts/rotate-credential.ts',
  'lib/domain/users/create-user.ts',
  'lib/domain/users/insert-user.ts',
  'lib/domain/users/set-user-password.ts',
  'lib/domain/users/password-presence.ts',
  'lib/domain/auth/password-login.ts',
  'lib/domain/auth/sign-in-user-sql.ts',
  'lib/domain/login-providers/provider-secret.ts',
  'lib/domain/privacy/mask-account.ts',
  'lib/oidc/adapter.ts',
  'lib/oidc/client-metadata.ts',
  'lib/cli/recover-bootstrap-admin.ts',
];
/** Columns holding credential material (prisma/realm.models.prisma). */
const CREDENTIAL_COLUMNS = [
  'passwordHash',
  'tokenHash',
  'secretHash',
  'secretEncrypted',
  'codeHash',
  'emailTokenHash',
  'privateJwk',
  'upstreamIdTokenEncrypted',
];
const credentialName = `/^(${CREDENTIAL_COLUMNS.join('|')})$/`;

const PRISMA = {
  group: ['@prisma/*', '**/db/generated/**', '**/generated/*/client'],
  message: 'only lib/db talks to Prisma: import its types from lib/db/types.ts',
};

export const architecture = [
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { 'gatehouse-architecture': { rules: { 'no-concept-cycle': conceptCycles, 'browser-safe': browserSafe } } },
    rules: {
      'gatehouse-architecture/no-concept-cycle': 'error',
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [PRISMA] }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'the environment is read in lib/config/env.ts only' }],
    },
  },
  {
    // Tests may drive any layer (they do not ship); everything else follows the arrows.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: layerZones }] },
  },
  {
    files: ['lib/**/*.ts'],
    ignores: ['lib/**/*.test.ts'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  { files: ['lib/db/**'], rules: { '@typescript-eslint/no-restricted-imports': 'off' } },
  {
    files: ['lib/domain/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            PRISMA,
            { group: ['next', 'next/*', 'oidc-provider', 'oidc-provider/*'], message: 'domain code does not know the web framework or the OAuth engine' },
          ],
        },
      ],
    },
  },
  {
    // components/ reach the browser: what they value-import from lib/ is built on zod alone.
    files: ['components/**'],
    ignores: ['**/*.test.ts'],
    rules: { 'gatehouse-architecture/browser-safe': 'error' },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: CREDENTIAL_MODULES,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `:matches(Identifier[name=${credentialName}], Literal[value=${credentialName}])`,
          message: 'credential material is named only in the modules that set or verify it (docs/architecture.md "Data access")',
        },
      ],
    },
  },
  {
    // Configuration, tests, scripts and benchmarks may read the environment and name anything.
    files: ['lib/config/env.ts', '**/*.test.ts', 'e2e/**', 'scripts/**', 'benchmarks/**', '*.config.*', 'lib/testing/**'],
    rules: { 'no-restricted-properties': 'off', 'no-restricted-syntax': 'off' },
  },
];
