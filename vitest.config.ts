import { defineConfig } from 'vitest/config';
import { extraCaCertsWithTestCa } from './server/test/fakes/tls/test-ca.ts';

// The fakes serve some APIs over https with a test CA (server/test/fakes/tls/). Node reads
// NODE_EXTRA_CA_CERTS only at process start, so it is set here, in the main process, before the
// test workers (pool 'forks': child processes inheriting this environment) start.
process.env.NODE_EXTRA_CA_CERTS = extraCaCertsWithTestCa(process.env.NODE_EXTRA_CA_CERTS);

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
