/**
 * The real-Electron suite (docs/desktop-release.md "Real-Electron suite"): Playwright's
 * `_electron.launch` against the real server started by global-setup.ts. `npm run test:desktop`
 * builds the web app and the desktop bundles first (web/dist, desktop/dist); this config builds
 * nothing. On Linux run it under a display: `xvfb-run -a npm run test:desktop`. Without Electron's
 * binary every spec is skipped with the reason.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');

export default defineConfig({
  testDir: here,
  testMatch: /.*\.spec\.ts$/,
  // One app at a time: each launch is a whole Electron process with its own data folder.
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 20_000 },
  globalSetup: path.join(here, 'global-setup.ts'),
  outputDir: path.join(root, 'test-results', 'desktop-e2e-artifacts'),
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? path.join(root, 'test-results', 'desktop-e2e.json') }],
  ],
});
