import { defineConfig } from 'vitest/config';
import { pathAliases } from './vite.config';

export default defineConfig({
  resolve: { alias: pathAliases },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['domain/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['server/**/*.test.ts'],
          // the stack check after every test that has a test app open (decision 027)
          setupFiles: ['server/test/stack-check.setup.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // the test files share one PostgreSQL server; two workers suit this 2-core machine
          maxWorkers: 2,
          // the files of a worker share one module graph: the server's code is loaded twice per run, not 75 times (no
          // API test mocks a module or changes the environment; each builds its own app and database)
          isolate: false,
        },
      },
    ],
  },
});
