import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Every CSV the shop writes goes through the one writer, which neutralises formula cells (docs/decisions/security-review.md §4). */
const CSV_WRITER_ONLY = {
  group: ['csv-stringify', 'csv-stringify/*'],
  message: 'Write CSV through @nh/server/csv (csvWriter): it neutralises cells a spreadsheet would run as formulas.',
};

/** The server core is read by subpath (`@nh/server/queries/orders`); it has no root barrel (docs/decisions/house-structure.md §2). */
const SERVER_BY_SUBPATH = {
  regex: '^@nh/server(/index)?$',
  message: 'Import the server core by subpath: @nh/server/queries/<aggregate>, @nh/server/observability/logger, …',
};
/** SQL lives in @nh/server (migrations/src/queries) only (docs/decisions/house-structure.md §1). */
const NO_SQL_IMPORTS = {
  group: ['drizzle-orm', 'drizzle-orm/*', 'pg', 'pg-*'],
  message: 'SQL lives in @nh/server: add or reuse a function in migrations/src/queries/ and call it.',
};
const SQL_TEXT = '/^\\s*(select\\s[\\s\\S]*\\sfrom\\s|insert\\s+into\\s|update\\s+\\S+\\s+set\\s|delete\\s+from\\s|with\\s+\\w+\\s+as\\s*\\()/i';
const NO_SQL_TEXT = [
  'error',
  { selector: `Literal[value=${SQL_TEXT}]`, message: 'SQL lives in @nh/server: move this statement into migrations/src/queries/.' },
  { selector: `TemplateElement[value.raw=${SQL_TEXT}]`, message: 'SQL lives in @nh/server: move this statement into migrations/src/queries/.' },
  { selector: "CallExpression[callee.property.name='query'][arguments.0.type=/^(Literal|TemplateLiteral)$/]", message: 'SQL lives in @nh/server: move this statement into migrations/src/queries/.' },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-server/**', '**/node_modules/**', 'migrations/sql/**', 'api/public/**', 'web/public/**', '.local/**', 'coverage/**'] },
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
        { patterns: [{ group: ['@nh/api', '@nh/api/*', '@nh/workers', '@nh/workers/*', '@nh/web', '@nh/web/*', '**/api/src/*', '**/workers/src/*'], message: '@nh/server is shared by api and workers: it imports neither.' }, SERVER_BY_SUBPATH] },
      ],
    },
  },
  {
    files: ['api/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/workers/src/*', '@nh/workers', '@nh/workers/*', '@nh/web', '@nh/web/*'], message: 'The API does not import worker or web code.' }, CSV_WRITER_ONLY, SERVER_BY_SUBPATH, NO_SQL_IMPORTS] }],
      'no-restricted-syntax': NO_SQL_TEXT,
    },
  },
  {
    files: ['workers/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/api/src/*', '@nh/api', '@nh/api/*', '@nh/web', '@nh/web/*'], message: 'Workers do not import API or web code.' }, CSV_WRITER_ONLY, SERVER_BY_SUBPATH, NO_SQL_IMPORTS] }],
      'no-restricted-syntax': NO_SQL_TEXT,
    },
  },
  // Tests and benchmarks are harnesses: they may read and arrange the database directly, but they too
  // read the server core by subpath.
  {
    files: ['{api,workers}/{test,bench}/**/*.ts', 'scripts/**/*.{ts,mjs}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_BY_SUBPATH] }] },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // Web layers and file names: the block at the end of this file.
  ...webLayers(),
);

// ═══════════════════════════════════════════════════════════════════════════════ web: layers (BEGIN)
// Issue 10 §5–6; in words: docs/decisions/web-structure.md. Everything under web/src is browser code:
//   app/            the app layer: router, site frame, routes that compose features; may import anything
//   features/<x>/   one feature: itself and the shared layers, never another feature nor the app
//   shared layers   every other folder of web/src (components, hooks, lib, stores, testing …): each
//                   other, never a feature nor the app
//   all of it       no server code, and relative imports never leave web/src (use @/… or a package)
// One config object per folder of web/src, generated from the tree when ESLint starts, so a new
// feature or folder is covered without editing this file. Each file gets exactly one
// `no-restricted-imports` (the last matching object wins), so every object carries the server
// patterns as well as its layer's own. Not covered: web/e2e, web/scripts and web/*.config.ts, which
// run in Node (the browser tests start the real API and read its database).
// File and folder names are kebab-case (`cart-context.test.tsx`), checked by a rule defined here.
function webLayers() {
  const webSrc = new URL('./web/src/', import.meta.url);
  const webDir = decodeURIComponent(new URL('./web/', import.meta.url).pathname);
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const up = (levels) => `^(\\.\\./){${levels}}`;
  const server = [
    { regex: '^@nh/(server|db)', message: 'Browser code: no server package (@nh/server, @nh/db).' },
    { regex: '^@nh/shared/server(/|$)', message: 'Browser code: @nh/shared/server is server code.' },
    { regex: '^@nh/(api|workers|migrations)(/|$)', message: 'Browser code: the api, workers and migrations packages are server code.' },
    { regex: '^(pg|ioredis|bullmq|express|drizzle-orm|pino|nodemailer|authorizenet|netsuite-rest)(/|$)', message: 'Browser code: no server dependency.' },
    { regex: '^node:', message: 'Browser code: no Node built-in module.' },
  ];
  const folders = (url, trail = []) =>
    readdirSync(url, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => {
        const path = [...trail, entry.name];
        return [path, ...folders(new URL(`${entry.name}/`, url), path)];
      });

  /** The layer rules for files directly in web/src/<path…> (path = folder names below web/src). */
  const patternsFor = (path) => {
    const depth = path.length;
    const patterns = [...server, { regex: up(depth + 1), message: 'Relative imports stay inside web/src: import with @/… or a package name.' }];
    const [layer, feature] = path;
    if (layer === 'features' && feature) {
      patterns.push(
        {
          regex: `^@/features/(?!${escape(feature)}(/|$))`,
          message: `Features do not import each other: move what both need to a shared layer (components, hooks, lib, stores), or let the app layer (web/src/app) compose them.`,
        },
        { regex: '^@/app(/|$)', message: 'A feature does not import the app layer; the app composes features.' },
        { regex: up(depth - 1), message: `Relative imports stay inside the feature (${feature}): import shared layers with @/…; features do not import each other.` },
      );
    } else if (layer !== undefined && layer !== 'app' && layer !== 'features') {
      patterns.push(
        { regex: '^@/(features|app)(/|$)', message: 'Shared layers (components, hooks, lib, stores …) never import a feature or the app layer.' },
        { regex: `${up(depth)}(features|app)(/|$)`, message: 'Shared layers (components, hooks, lib, stores …) never import a feature or the app layer.' },
      );
    }
    return patterns;
  };

  const kebab = /^[a-z0-9]+(-[a-z0-9]+)*$/;
  const kebabCasePath = {
    meta: { type: 'suggestion', schema: [], messages: { name: "'{{name}}' is not kebab-case: web file and folder names are lower-case words joined by '-' (e.g. use-place-order.ts)." } },
    create(context) {
      const relative = context.physicalFilename.startsWith(webDir) ? context.physicalFilename.slice(webDir.length) : '';
      const bad = relative.split('/').find((name, index, all) => !(index === all.length - 1 ? name.split('.') : [name]).every((part) => kebab.test(part)));
      return {
        Program(node) {
          if (bad) context.report({ node, messageId: 'name', data: { name: bad } });
        },
      };
    },
  };

  return [
    ...[[], ...folders(webSrc)].map((path) => ({
      files: [`web/src/${path.map((name) => `${name}/`).join('')}*.{ts,tsx}`],
      rules: { 'no-restricted-imports': ['error', { patterns: patternsFor(path).map((pattern) => ({ ...pattern, caseSensitive: true })) }] },
    })),
    {
      files: ['web/src/**/*.{ts,tsx}', 'web/e2e/**/*.ts'],
      plugins: { 'nh-web': { rules: { 'kebab-case-path': kebabCasePath } } },
      rules: { 'nh-web/kebab-case-path': 'error' },
    },
  ];
}
// ═════════════════════════════════════════════════════════════════════════════════ web: layers (END)
