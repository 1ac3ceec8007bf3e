/**
 * Browser tests against the real server (started by global-setup.ts) in Debian's Chromium.
 * The caller builds the web app first (`npm run build -w web`); this config builds nothing.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');

/**
 * Specs that drive the Google and Microsoft fakes: one fake account each, shared by the whole run
 * (global-setup.ts), whose tokens, channels and calendars these specs change. They run one
 * after another (each project depends on the one before), beside the rest of the suite.
 */
// In this order: oauth-connect leaves events in the Google fake's primary calendar that the
// others' public pages would show as busy.
const FAKE_SPECS = ['calendar-switches', 'desktop-mode', 'oauth-connect'];
const fakeSpec = (name: string) => new RegExp(`[/\\\\]${name}\\.spec\\.ts$`);

export default defineConfig({
  testDir: here,
  testMatch: /.*\.spec\.ts$/,
  // Every test makes its own owner (helpers.ts: seeded through the API, signed in by token), so
  // tests run in parallel across files and inside them; files whose tests build on each other say
  // `test.describe.configure({ mode: 'serial' })`. Two workers: the machine has two cores.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // The fakes' chain first: Playwright hands out tests in project order, so one worker starts on it
  // while the other takes the rest (listed last, the chain ran alone at the end with a worker idle).
  projects: [
    ...FAKE_SPECS.map((name, i) => ({ name: `fakes-${name}`, testMatch: fakeSpec(name), fullyParallel: false, dependencies: i ? [`fakes-${FAKE_SPECS[i - 1]}`] : [] })),
    { name: 'app', testIgnore: FAKE_SPECS.map(fakeSpec) },
  ],
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  globalSetup: path.join(here, 'global-setup.ts'),
  // One artifacts folder per web build under test, so runs against different builds (WEB_DIST_DIR)
  // in parallel don't clean each other's traces.
  outputDir: path.join(root, 'test-results', process.env.WEB_DIST_DIR ? `e2e-artifacts-${path.basename(process.env.WEB_DIST_DIR)}` : 'e2e-artifacts'),
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? path.join(root, 'test-results', 'e2e.json') }],
  ],
  use: {
    ...devices['Desktop Chrome'],
    baseURL: process.env.E2E_BASE_URL,
    timezoneId: 'Europe/Brussels',
    // en-GB: English texts (the spec's, verbatim) on a 24-hour clock; specs of other locales set their own.
    locale: 'en-GB',
    // page.route can miss requests of a page a service worker controls (Playwright docs, "Network"
    // → service workers); specs mock answers, so workers are off except in offline.spec.ts.
    serviceWorkers: 'block',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
