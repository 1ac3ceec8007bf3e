#!/usr/bin/env node
/**
 * The packaging check (`npm run test:pack -w desktop`, one counted step of `npm test` after the web
 * build; docs/desktop-release.md, "Real-Electron suite" last paragraph).
 *
 * Runs electron-builder with the real electron-builder.yml for `--linux dir`, overriding only what
 * cannot work here: a stand-in Electron folder (`electronDist`: a folder with an executable named
 * `electron`, since Electron's binary is not downloaded), `electronFuses: null` (flipping fuses
 * needs the real binary), `publish: null`, and a temporary output folder. electron-builder validates
 * the configuration against its schema on the way. Then it lists `resources/app.asar` with
 * `@electron/asar` and requires that it holds exactly
 *   /package.json, /desktop/dist/main.cjs, /desktop/dist/preload.cjs and every file of web/dist
 *   (no source maps), and nothing else — no node_modules, sources, maps, tests, other folders;
 * and that `resources/tray/` holds the tray images.
 *
 * Builds the desktop bundles into desktop/dist first; uses the existing web/dist (never rebuilds it)
 * and fails at once when it is missing. `--config <file>` checks another configuration (to prove the
 * check catches a bad `files` list). Exit 0 when all holds, else 1 with the offending paths.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const TRAY_IMAGES = ['trayTemplate.png', 'trayTemplate@2x.png', 'tray-light.png', 'tray-light@2x.png', 'tray-dark.png', 'tray-dark@2x.png', 'icon.png'];

function fail(lines) {
  console.error(`pack-check: FAILED after ${seconds()}`);
  for (const line of lines) console.error(`  ${line}`);
  process.exit(1);
}

/** Every file below `dir`, as '/'-separated paths relative to `base`. */
function filesBelow(dir, base) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesBelow(full, base));
    else out.push(relative(base, full).split(sep).join('/'));
  }
  return out;
}

const configArg = process.argv.indexOf('--config');
const configFile = configArg > 0 ? resolve(process.argv[configArg + 1] ?? '') : join(root, 'electron-builder.yml');
const webDist = join(root, 'web', 'dist');
if (!existsSync(join(webDist, 'index.html'))) {
  fail(['web/dist/index.html is missing: build the web app first (npm run build -w web); the check packs the existing web build.']);
}

console.log('pack-check: building the desktop bundles (desktop/dist)');
const bundle = spawnSync(process.execPath, [join(root, 'desktop', 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (bundle.status !== 0) fail(['desktop/scripts/build.mjs failed']);

const scratch = mkdtempSync(join(tmpdir(), 'avail-pack-check-'));
try {
  // A stand-in for Electron's unpacked release: electron-builder copies the folder and renames the
  // executable; it never runs it for a Linux `dir` target.
  const standIn = join(scratch, 'electron-dist');
  mkdirSync(standIn);
  writeFileSync(join(standIn, 'electron'), '#!/bin/sh\necho "stand-in for Electron (pack-check)" >&2\nexit 1\n');
  chmodSync(join(standIn, 'electron'), 0o755);
  const output = join(scratch, 'out');

  console.log(`pack-check: electron-builder --linux dir with ${relative(root, configFile)} (stand-in Electron, no fuses, no publish)`);
  process.chdir(root);
  const { build } = await import('electron-builder');
  try {
    await build({
      projectDir: root,
      config: { extends: configFile, electronDist: standIn, electronFuses: null, publish: null, directories: { output } },
      linux: ['dir'],
      publish: 'never',
    });
  } catch (error) {
    fail([`electron-builder failed: ${error instanceof Error ? error.message : String(error)}`]);
  }

  const resources = join(output, 'linux-unpacked', 'resources');
  const archive = join(resources, 'app.asar');
  if (!existsSync(archive)) fail([`no ${relative(scratch, archive)} was written`]);
  const asar = await import('@electron/asar');
  const entries = asar.listPackage(archive, { isPack: false }).map((p) => p.split(sep).join('/'));
  const files = entries.filter((p) => !('files' in asar.statFile(archive, p.slice(1), false)));

  const webFiles = filesBelow(webDist, root).filter((p) => !p.endsWith('.map')).map((p) => `/${p}`);
  const expected = new Set(['/package.json', '/desktop/dist/main.cjs', '/desktop/dist/preload.cjs', ...webFiles]);
  const unexpected = files.filter((p) => !expected.has(p));
  const missing = [...expected].filter((p) => !files.includes(p));
  const trayDir = join(resources, 'tray');
  const trayMissing = TRAY_IMAGES.filter((name) => !existsSync(join(trayDir, name)));

  const problems = [
    ...unexpected.map((p) => `in app.asar but must not be: ${p}`),
    ...missing.map((p) => `missing from app.asar: ${p}`),
    ...trayMissing.map((name) => `missing from resources/tray/: ${name}`),
  ];
  if (problems.length > 0) fail(problems);
  console.log(
    `pack-check: OK in ${seconds()}: app.asar holds exactly ${files.length} files (package.json, desktop/dist/main.cjs, desktop/dist/preload.cjs, ${webFiles.length} of web/dist; no node_modules, sources, maps or tests); resources/tray/ holds ${TRAY_IMAGES.length} images`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
