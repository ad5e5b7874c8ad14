import path from 'node:path';
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

// Import direction, checked on resolved paths (so `../../racks/...` is caught however it is spelled).
const folders = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const webFeatures = folders('./web/src/features');
const serverFeatures = folders('./server/features');
// The core aggregate: a warehouse holds fields, a field holds vaults. The other server features build on it.
const serverCore = ['warehouses', 'fields', 'vaults'];
const serverEdge = serverFeatures.filter((name) => !serverCore.includes(name));
// Inside the core the direction is warehouses -> fields -> vaults: a field is built on its warehouse, a vault on its
// field, so the behaviour (services, loaders, routes, builders) of a lower layer never imports a higher one. The
// repositories and presenters are the core's one data layer: every answer shows a warehouse or a field with what is
// in it, so any core file may read and present any core table through them (decision 015).
const coreDirection = serverCore.slice(0, -1).map((name, index) => ({
  target: `./server/features/${name}`,
  from: serverCore.slice(index + 1).map((higher) => `./server/features/${higher}/**`),
  except: ['**/*.repo.ts', '**/*.presenter.ts'],
  message:
    'the core runs warehouses -> fields -> vaults: a lower layer imports only the repos and presenters of a higher one',
}));
const zones = [
  { target: './domain', from: ['./server', './web'], message: 'domain is pure: it imports neither side' },
  { target: './server', from: './web', message: 'server never imports web code' },
  { target: './web', from: './server', message: 'web never imports server code' },
  ...webFeatures.map((name) => ({
    target: `./web/src/features/${name}`,
    from: './web/src/features',
    except: [`./${name}`],
    message: 'web features do not import each other; share through components, lib or api',
  })),
  {
    target: './web/src/features',
    from: './web/src/app',
    message: 'features never import app/; app/ composes them',
  },
  {
    target: ['./web/src/components', './web/src/lib', './web/src/api', './web/src/config'],
    from: ['./web/src/features', './web/src/app'],
    message: 'shared web code never imports features or app/',
  },
  ...serverCore.map((name) => ({
    target: `./server/features/${name}`,
    from: serverEdge.map((edge) => `./server/features/${edge}`),
    message:
      'the core (warehouses, fields, vaults) never imports layout, racks, checklists, print or contact',
  })),
  ...coreDirection,
  {
    target: './server/db',
    from: ['./server/features', './server/auth', './server/http', './server/events', './server/transfer'],
    message:
      'server/db imports no feature: demo data is composed in server/demo-seed.ts, builders in server/factories.ts',
  },
];

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', '.tmp/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    files: ['domain/**/*.ts'],
    rules: restrict([{ group: ['node:*'], message: 'domain is pure: no I/O' }]),
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs'],
          // tsconfig.json's paths
          alias: { '@domain': [path.resolve('domain')], '@': [path.resolve('web/src')] },
        }),
      ],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // the demo warehouses are seeded through every layer of the core, as a user fills them
    files: ['server/features/**/*.demo.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: zones.filter((zone) => !coreDirection.includes(zone)) },
      ],
    },
  },
  {
    // tests arrange data across features; the direction rules bind the product code
    files: ['**/*.test.ts', 'server/test/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    // Playwright fixtures must destructure their dependencies, even when there are none
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
);
