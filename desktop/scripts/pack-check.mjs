#!/usr/bin/env node
/**
 * The packaging check (`npm run test:pack -w desktop`, one counted step of `npm test` after the web
 * build; docs/desktop-release.md, "Real-Electron suite" last paragraph).
 *
 * Runs electron-builder with the real electron-builder.yml for Linux `dir`, `deb` and `AppImage`,
 * overriding only what cannot work here: a stand-in Electron folder (`electronDist`: a folder with
 * an executable named `electron`, since Electron's binary is not downloaded), `electronFuses: null`
 * (flipping fuses needs the real binary), a test update source (`publish`: a generic https URL, as
 * `npm run dist` would pass from AVAIL_PUBLISH_*; nothing is uploaded) and a temporary output
 * folder. electron-builder validates the configuration against its schema on the way. The deb and
 * AppImage targets are stopped just before they fetch fpm / appimagetool from github.com.
 * Then it requires that
 *   - `resources/app.asar` (listed with `@electron/asar`) holds exactly /package.json,
 *     /desktop/dist/main.cjs, /desktop/dist/preload.cjs and every file of web/dist but the
 *     server's (ssr/, the .br/.gz copies) and source maps, and nothing else — no node_modules, sources, maps, tests, other folders; the packaged
 *     package.json's `main` is desktop/dist/main.cjs;
 *   - the packaged main.cjs, taken out of the asar, can be required by a child `node` with only a
 *     stub `electron` module on its path (bundle-load-check.mjs: nothing starts) — no missing
 *     external, no bad define, no top-level throw;
 *   - `resources/tray/` holds the tray images; `resources/app-update.yml` names the update source;
 *   - the artifacts are named Avail-<version>-amd64.deb and Avail-<version>-x86_64.AppImage;
 *   - both desktop entries (Avail.desktop) say Name=Avail, StartupWMClass=Avail,
 *     Categories=Office;Calendar; with a Comment, Icon and Exec; the deb gets the homepage, a
 *     maintainer with an e-mail address, the license and a vendor.
 *
 * Builds the desktop bundles into desktop/dist first; uses the existing web/dist (never rebuilds it)
 * and fails at once when it is missing. `--config <file>` checks another configuration (to prove the
 * check catches a bad one). Exit 0 when all holds, else 1 with the offending paths or values.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundleWithStubElectron } from './bundle-load-check.mjs';

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

// A build-time update source as `npm run dist` passes it (publish-config.mjs); nothing is uploaded.
const TEST_PUBLISH = { provider: 'generic', url: 'https://updates.example.com/avail/' };
const DESKTOP_ENTRY = { Name: 'Avail', StartupWMClass: 'Avail', Categories: 'Office;Calendar;', Type: 'Application' };

/** The artifact names electron-builder started, compared with the expected ones. */
function expectArtifacts(started, expected) {
  return expected.filter((name) => !started.includes(name)).map((name) => `no artifact named ${name} (started: ${started.join(', ') || 'none'})`);
}

/** Problems with a `[Desktop Entry]` text: the keys of DESKTOP_ENTRY, a Comment and an Icon. */
function checkDesktopEntry(target, text) {
  const entry = Object.fromEntries(
    text
      .split('\n')
      .map((line) => line.match(/^([A-Za-z]+)=(.*)$/))
      .filter(Boolean)
      .map((m) => [m[1], m[2]]),
  );
  const problems = Object.entries(DESKTOP_ENTRY)
    .filter(([key, value]) => entry[key] !== value)
    .map(([key, value]) => `${target} desktop entry: ${key}=${entry[key] ?? '(missing)'}, expected ${value}`);
  for (const key of ['Comment', 'Icon', 'Exec']) if (!entry[key]) problems.push(`${target} desktop entry: no ${key}`);
  return problems;
}

/** Problems with the fpm arguments of the deb: homepage, maintainer, license and vendor set. */
function checkDebArgs(args, rootPackage) {
  const value = (flag) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const problems = [];
  if (value('--url') !== rootPackage.homepage) problems.push(`deb: --url ${value('--url')} (expected the homepage ${rootPackage.homepage})`);
  if (!/<[^>]+@[^>]+>/.test(value('--maintainer') ?? '')) problems.push(`deb: --maintainer ${value('--maintainer')} lacks an e-mail address`);
  if (value('--license') !== rootPackage.license) problems.push(`deb: --license ${value('--license')} (expected ${rootPackage.license})`);
  if (!value('--vendor')) problems.push('deb: no --vendor');
  return problems;
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

  console.log(`pack-check: electron-builder --linux dir deb AppImage with ${relative(root, configFile)} (stand-in Electron, no fuses, a test update URL, nothing published)`);
  process.chdir(root);
  const { build } = await import('electron-builder');
  // The deb and AppImage targets are stopped (electron-builder's `effectiveOptionComputed`) just
  // before they fetch fpm / appimagetool from github.com: by then the package metadata deb needs
  // (homepage, maintainer…), the desktop entry and app-update.yml are computed and checked here.
  const seen = { deb: null, appImage: null, artifacts: [] };
  const effectiveOptionComputed = async (options) => {
    if (Array.isArray(options) && typeof options[1] === 'string') {
      seen.deb = { args: options[0], desktop: readFileSync(options[1], 'utf8') };
      return true;
    }
    if (options && typeof options === 'object' && 'desktop' in options) {
      seen.appImage = { desktop: options.desktop, desktopFileName: options.desktopFileName };
      return true;
    }
    return false;
  };
  // electron-builder logs the whole dependency tree of the workspace in one line ("duplicate
  // dependency references", ~10 kB); keep npm test's output readable.
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => write(typeof chunk === 'string' && chunk.length > 600 ? `${chunk.slice(0, 200)}… (${chunk.length} characters cut)` : chunk, ...rest);
  try {
    await build({
      projectDir: root,
      config: {
        extends: configFile,
        electronDist: standIn,
        electronFuses: null,
        publish: TEST_PUBLISH,
        directories: { output },
        artifactBuildStarted: (context) => {
          seen.artifacts.push(basename(context.file));
        },
      },
      linux: ['dir', 'deb', 'AppImage'],
      publish: 'never',
      effectiveOptionComputed,
    });
  } catch (error) {
    fail([`electron-builder failed: ${error instanceof Error ? error.message : String(error)}`]);
  } finally {
    process.stdout.write = write;
  }

  const resources = join(output, 'linux-unpacked', 'resources');
  const archive = join(resources, 'app.asar');
  if (!existsSync(archive)) fail([`no ${relative(scratch, archive)} was written`]);
  const asar = await import('@electron/asar');
  const entries = asar.listPackage(archive, { isPack: false }).map((p) => p.split(sep).join('/'));
  const files = entries.filter((p) => !('files' in asar.statFile(archive, p.slice(1), false)));

  // What the renderer needs of web/dist: not the server's SSR bundle, nor source maps or the
  // precompressed .br/.gz copies (app:// serves the plain files).
  const webFiles = filesBelow(webDist, root)
    .filter((p) => !/\.(map|br|gz)$/.test(p) && !p.startsWith('web/dist/ssr/'))
    .map((p) => `/${p}`);
  const expected = new Set(['/package.json', '/desktop/dist/main.cjs', '/desktop/dist/preload.cjs', ...webFiles]);
  const unexpected = files.filter((p) => !expected.has(p));
  const missing = [...expected].filter((p) => !files.includes(p));
  const trayDir = join(resources, 'tray');
  const trayMissing = TRAY_IMAGES.filter((name) => !existsSync(join(trayDir, name)));

  const packaged = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8'));
  // The packaged main bundle, required by node with only a stub `electron` beside it: a missing
  // external or a bad define fails here, not at the owner's first start.
  let loaded = { ok: false, reason: 'not in app.asar' };
  if (files.includes('/desktop/dist/main.cjs')) {
    const packagedMain = join(scratch, 'packaged-main.cjs');
    writeFileSync(packagedMain, asar.extractFile(archive, 'desktop/dist/main.cjs'));
    // Twice: nothing starting, then started with updates on (the bundled electron-updater evaluated).
    loaded = loadBundleWithStubElectron(packagedMain, { updater: true });
  }
  const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const updateYml = existsSync(join(resources, 'app-update.yml')) ? readFileSync(join(resources, 'app-update.yml'), 'utf8') : '';
  const version = rootPackage.version;

  const problems = [
    ...unexpected.map((p) => `in app.asar but must not be: ${p}`),
    ...missing.map((p) => `missing from app.asar: ${p}`),
    ...trayMissing.map((name) => `missing from resources/tray/: ${name}`),
    ...(loaded.ok ? [] : [`the packaged desktop/dist/main.cjs cannot be required (node, a stub electron module, nothing else): ${loaded.reason}`]),
    ...(packaged.main === 'desktop/dist/main.cjs' ? [] : [`the packaged package.json's main is ${JSON.stringify(packaged.main)}, not desktop/dist/main.cjs`]),
    ...(/^provider: generic$/m.test(updateYml) && updateYml.includes(`url: ${TEST_PUBLISH.url}`) ? [] : ['resources/app-update.yml does not name the build-time update source (provider: generic, its url)']),
    ...expectArtifacts(seen.artifacts, [`Avail-${version}-amd64.deb`, `Avail-${version}-x86_64.AppImage`]),
    ...(seen.deb ? checkDesktopEntry('deb', seen.deb.desktop) : ['the deb target never reached its packaging step']),
    ...(seen.deb ? checkDebArgs(seen.deb.args, rootPackage) : []),
    ...(seen.appImage ? checkDesktopEntry('AppImage', seen.appImage.desktop) : ['the AppImage target never reached its packaging step']),
    ...(seen.appImage && seen.appImage.desktopFileName !== 'Avail.desktop' ? [`the AppImage's desktop file is ${seen.appImage.desktopFileName}, not Avail.desktop`] : []),
  ];
  if (problems.length > 0) fail(problems);
  console.log(
    `pack-check: OK in ${seconds()}: app.asar holds exactly ${files.length} files (package.json, desktop/dist/main.cjs, desktop/dist/preload.cjs, ${webFiles.length} of web/dist; no node_modules, sources, maps or tests); the packaged main.cjs loads under node with a stub electron; resources/tray/ holds ${TRAY_IMAGES.length} images; app-update.yml names the update source; ${seen.artifacts.join(' and ')} reached their packaging step with the Avail.desktop entry and the deb metadata (not built: fpm and appimagetool come from github.com)`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
