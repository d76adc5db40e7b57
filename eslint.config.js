import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'migrations/sql/**', 'api/public/**', 'web/public/**', '.local/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'off',
    },
  },
  // ---------------------------------------------------------------- boundaries and type-aware rules
  // Every TypeScript file is linted with its own package's tsconfig (typescript-eslint's project service).
  {
    files: ['{api,workers,migrations,shared,web}/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['shared/tsconfig.json', 'migrations/tsconfig.json', 'api/tsconfig.json', 'workers/tsconfig.json', 'web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      // No import cycles, inside a package or across packages.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      // Promises are awaited or deliberately voided; only errors are thrown; switches over unions are exhaustive.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  // The browser-safe package never reaches for server code; the server package never for an app.
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nh/server', '@nh/server/*', '@nh/api', '@nh/api/*', '@nh/workers', '@nh/workers/*', '@nh/web', '@nh/web/*'], message: '@nh/shared is browser-safe: it imports no server or app package.' },
            { group: ['pg', 'ioredis', 'bullmq', 'express', 'drizzle-orm', 'drizzle-orm/*', 'pino', 'nodemailer', 'authorizenet', 'node:*'], message: '@nh/shared is browser-safe: no server dependency.' },
          ],
        },
      ],
    },
  },
  {
    files: ['migrations/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@nh/api', '@nh/api/*', '@nh/workers', '@nh/workers/*', '@nh/web', '@nh/web/*', '**/api/src/*', '**/workers/src/*'], message: '@nh/server is shared by api and workers: it imports neither.' }] },
      ],
    },
  },
  {
    files: ['api/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/workers/src/*', '@nh/workers', '@nh/workers/*', '@nh/web', '@nh/web/*'], message: 'The API does not import worker or web code.' }] }],
    },
  },
  {
    files: ['workers/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/api/src/*', '@nh/api', '@nh/api/*', '@nh/web', '@nh/web/*'], message: 'Workers do not import API or web code.' }] }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
