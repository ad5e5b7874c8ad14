import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['domain/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
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
        },
      },
    ],
  },
});
