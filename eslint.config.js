import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

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
      ...restrict([
        { group: ['**/server/**'], message: 'web never imports server code' },
        {
          group: ['**/features/*/**', '!./**', '!../**/components/**'],
          message: 'features do not import each other',
        },
      ]),
    },
  },
  {
    // app/ composes the features; it may import them
    files: ['web/src/app/**/*.{ts,tsx}'],
    rules: restrict([{ group: ['**/server/**'], message: 'web never imports server code' }]),
  },
  {
    files: ['domain/**/*.ts'],
    rules: restrict([
      { group: ['**/server/**', '**/web/**', 'node:*'], message: 'domain is pure: no server, web or I/O' },
    ]),
  },
  {
    // Playwright fixtures must destructure their dependencies, even when there are none
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['server/**/*.ts'],
    rules: restrict([{ group: ['**/web/**'], message: 'server never imports web code' }]),
  },
);
