#!/usr/bin/env node
/**
 * `npm run dev -w desktop`: builds the web app (web/dist) and the desktop bundles (desktop/dist),
 * then starts Electron on the desktop folder (docs/desktop-release.md, "Comfort", last line).
 *
 * Electron's binary is not part of `npm install` here (root package.json `allowScripts`, see
 * desktop/README.md "Electron's binary"). Without it this says how to fetch it and exits 1 — before
 * building anything — instead of Electron's own "failed to install correctly" message.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const desktop = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(desktop, '..');

/**
 * The Electron executable that `require('electron')` would give, or null when it is not there.
 * Mirrors node_modules/electron/index.js: `path.txt` names the executable inside `dist/`
 * (written by electron's install.js after its download); `ELECTRON_OVERRIDE_DIST_PATH` points
 * elsewhere.
 *
 * @param {string} electronDir the `electron` package folder (node_modules/electron)
 * @param {Record<string, string | undefined>} [env]
 * @returns {string | null} absolute path of an existing executable, or null
 */
export function findElectronBinary(electronDir, env = process.env) {
  const pathFile = join(electronDir, 'path.txt');
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const executable = env.ELECTRON_OVERRIDE_DIST_PATH ? join(env.ELECTRON_OVERRIDE_DIST_PATH, name || 'electron') : name ? join(electronDir, 'dist', name) : null;
  return executable && existsSync(executable) ? executable : null;
}

/** The message printed when the binary is missing (one paragraph, the commands to run). */
export const MISSING_BINARY_MESSAGE = [
  "Electron's binary is not installed (npm install skips its download here: root package.json allowScripts).",
  'Fetch it once — this needs access to github.com, where Electron publishes its releases:',
  '',
  '  node node_modules/electron/install.js',
  '',
  'then run `npm run dev -w desktop` again.',
].join('\n');

function step(label, cmd, args) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function main() {
  const electronDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const binary = findElectronBinary(electronDir);
  if (!binary) {
    console.error(MISSING_BINARY_MESSAGE);
    process.exit(1);
  }
  step('web build (web/dist)', 'npm', ['run', 'build', '-w', 'web']);
  step('desktop bundles (desktop/dist)', process.execPath, [join(desktop, 'scripts', 'build.mjs')]);
  console.log(`\n▶ electron ${desktop}`);
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(binary, [desktop, ...process.argv.slice(2)], { cwd: desktop, stdio: 'inherit', env });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
