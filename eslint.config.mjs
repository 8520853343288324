// Lint: type-aware TypeScript rules that find real faults, and the architecture rules of
// docs/architecture.md ("Layers", "Data access") so the layering holds without a reviewer.
// Formatting is Prettier's job (`npm run format`), not ESLint's.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { architecture } from './scripts/eslint/architecture.mjs';

export default tseslint.config(
  {
    ignores: [
      'lib/db/generated/**',
      '.next/**',
      '.next-*/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'examples/**',
      'next-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    settings: {
      // How import-x reads the modules an import names (no-cycle follows them): TypeScript sources
      // through typescript-eslint's parser, resolved with tsconfig's paths (`@/`).
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: {
      // Promises: a forgotten await loses errors and ordering.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      'import-x/no-duplicates': 'error',
    },
  },
  {
    // The HTTP and browser tests read deep into answers typed `any` on purpose (e2e/api/support/http.ts);
    // Playwright reads a test's fixtures from an object pattern, so `async ({}, testInfo)` is how a
    // hook that needs none is written.
    files: ['e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-empty-pattern': 'off' },
  },
  {
    // Plain JavaScript (scripts, config files) has no type information.
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  ...architecture,
);
