import { defineConfig } from 'vitest/config';

/** Unit, conformance and API tests of all workspaces (browser tests run through Playwright). */
export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'server/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'desktop/**/*.test.ts'],
    // PostgreSQL-only tests (several instances on one database) run only when TEST_POSTGRES_URL is set.
    exclude: ['**/node_modules/**', 'web/e2e/**', ...(process.env.TEST_POSTGRES_URL ? [] : ['**/*.postgres.test.ts'])],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
