import { defineConfig } from 'vitest/config';

/** Unit, conformance and API tests of all workspaces (browser tests run through Playwright). */
export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'server/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', 'web/e2e/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
