/**
 * Loads a packaged main-process bundle (`desktop/dist/main.cjs` as taken out of app.asar) in a
 * child `node` process, the way Electron would require it, with nothing but Node's built-ins and a
 * stub `electron` module on its resolution path (docs/desktop-release.md, "Real-Electron suite",
 * the packaging check). Catches what only shows when the packaged app starts: a module esbuild left
 * external that the asar does not hold, a bad `define`, top-level code that throws.
 *
 * The stub answers every property and call with another stub, except: `app.isPackaged` is true,
 * `app.getPath()` returns a scratch folder, `app.requestSingleInstanceLock()` returns false and
 * `app.whenReady()` never resolves — so the bundle's top level runs and nothing starts.
 *
 * With `{ updater: true }` a second run then lets the app start (the lock granted, `whenReady()`
 * resolved, `screen.getAllDisplays()` empty) as an AppImage with `resources/app-update.yml`, so
 * main.ts's `loadUpdater()` evaluates the bundled electron-updater and builds its updater. It passes
 * when main.ts then listens to Electron's `before-quit-for-update` (app-updates.ts, only with updates on); a
 * logged `updates: off (…)` or `start failed` fails it.
 */
/** What the stub prints when main.ts listens to `autoUpdater`'s `before-quit-for-update`. */
const UPDATER_MARK = '[stub] the updater is running: before-quit-for-update listened to';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const STUB = `'use strict';
const path = require('node:path');
const START = process.env.AVAIL_BUNDLE_CHECK_START === '1';
const UPDATER_MARK = '[stub] the updater is running: before-quit-for-update listened to';
const scratch = path.join(__dirname, '..', '..', 'user-data');
function stub(name, overrides = {}) {
  const target = function () {};
  return new Proxy(target, {
    get(_t, key) {
      if (key in overrides) return overrides[key];
      if (key === 'then') return undefined; // not a promise
      if (key === Symbol.toPrimitive) return () => '';
      if (typeof key === 'symbol') return undefined;
      return stub(name + '.' + key);
    },
    apply() { return stub(name + '()'); },
    construct() { return stub('new ' + name); },
  });
}
const app = stub('app', {
  isPackaged: true,
  getPath: () => scratch,
  getVersion: () => '0.0.0',
  getName: () => 'Avail',
  getLocale: () => 'en-GB',
  commandLine: stub('app.commandLine', { hasSwitch: () => false, getSwitchValue: () => '' }),
  requestSingleInstanceLock: () => START,
  whenReady: () => (START ? Promise.resolve() : new Promise(() => {})),
});
// Start mode: what start() reads must look real enough to reach the updater.
const screen = stub('screen', { getAllDisplays: () => [] });
const autoUpdater = stub('autoUpdater', {
  on: (event) => {
    if (event === 'before-quit-for-update') {
      console.error(UPDATER_MARK);
      setTimeout(() => process.exit(0), 200);
    }
    return autoUpdater;
  },
  emit: () => true,
});
module.exports = stub('electron', { app, screen, autoUpdater });
`;

/**
 * Requires `mainFile` in a child node process with only the stub `electron` beside it.
 *
 * @param {string} mainFile the bundle (copied into a scratch folder first; the original is untouched)
 * @param {{ timeoutMs?: number }} [options] how long the child may take (default 20 000 ms)
 * @returns {{ ok: true } | { ok: false, reason: string }} `reason`: the first lines of what the child
 *   printed (the error and where), or its exit status
 */
export function loadBundleWithStubElectron(mainFile, { timeoutMs = 20_000, updater = false } = {}) {
  const first = runWithStub(mainFile, { timeoutMs, start: false });
  if (!first.ok || !updater) return first;
  const second = runWithStub(mainFile, { timeoutMs, start: true });
  return second.ok ? second : { ok: false, reason: `with updates on (started as an AppImage with app-update.yml): ${second.reason}` };
}

/** One child run; `start`: the app starts (see {@link loadBundleWithStubElectron}). */
function runWithStub(mainFile, { timeoutMs, start }) {
  const scratch = mkdtempSync(join(tmpdir(), 'avail-bundle-load-'));
  try {
    const bundleDir = join(scratch, 'app', 'desktop', 'dist');
    mkdirSync(bundleDir, { recursive: true });
    copyFileSync(mainFile, join(bundleDir, 'main.cjs'));
    const electronDir = join(scratch, 'app', 'node_modules', 'electron');
    mkdirSync(electronDir, { recursive: true });
    writeFileSync(join(electronDir, 'index.js'), STUB);
    writeFileSync(join(electronDir, 'package.json'), '{"name":"electron","main":"index.js"}\n');
    mkdirSync(join(scratch, 'resources'));
    mkdirSync(join(scratch, 'user-data'));
    if (start) writeFileSync(join(scratch, 'resources', 'app-update.yml'), 'provider: generic\nurl: https://updates.example.invalid/avail/\n');
    const loader = [
      `process.resourcesPath = ${JSON.stringify(join(scratch, 'resources'))};`,
      "process.on('unhandledRejection', (e) => { console.error('unhandled rejection:', e && e.stack ? e.stack : e); process.exit(1); });",
      `require(${JSON.stringify(join(bundleDir, 'main.cjs'))});`,
      // Let microtasks and immediate callbacks of the top level run, then stop (timers may be set).
      // Start mode: the stub exits 0 once the updater is running; never reaching it fails.
      start ? "setTimeout(() => { console.error('the updater was never started'); process.exit(3); }, 10000);" : 'setTimeout(() => process.exit(0), 300);',
    ].join('\n');
    const env = { ...process.env };
    for (const name of ['NODE_PATH', 'NODE_OPTIONS', 'ELECTRON_RUN_AS_NODE', 'AVAIL_E2E', 'APPIMAGE', 'APPDIR', 'AVAIL_BUNDLE_CHECK_START', 'SSLKEYLOGFILE']) delete env[name];
    if (start) Object.assign(env, { AVAIL_BUNDLE_CHECK_START: '1', APPIMAGE: join(scratch, 'Avail.AppImage'), APPDIR: dirname(process.execPath), XDG_CONFIG_HOME: join(scratch, 'config') });
    const run = spawnSync(process.execPath, ['-e', loader], { cwd: scratch, env, encoding: 'utf8', timeout: timeoutMs });
    if (run.error) return { ok: false, reason: `could not run node: ${run.error.message}` };
    const failedStart = /\[avail\] (updates: off|start failed)/.test(run.stderr ?? '');
    if (run.status === 0 && (!start || (!failedStart && (run.stderr ?? '').includes(UPDATER_MARK)))) return { ok: true };
    const said = `${run.stderr ?? ''}\n${run.stdout ?? ''}`
      .split('\n')
      .map((line) => line.trimEnd())
      .filter(Boolean)
      .slice(0, 6)
      .join(' | ');
    return { ok: false, reason: `${run.signal ? `killed (${run.signal})` : `exit ${run.status}`}: ${said.slice(0, 1200) || 'no output'}` };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
