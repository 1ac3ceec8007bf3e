#!/usr/bin/env node
/**
 * `npm run dist -w desktop [-- flags]`: builds the installers (docs/desktop-release.md, "Packaging").
 *
 *   1. the web app (`npm run build -w web` → web/dist) and the two desktop bundles
 *      (desktop/scripts/build.mjs → desktop/dist/{main,preload}.cjs);
 *   2. electron-builder's `build()` from the repository root with electron-builder.yml and the
 *      publish setting of `publishConfig(process.env)` (desktop/scripts/publish-config.mjs).
 *
 * Flags: `--linux`, `--mac`, `--win` (several allowed; default: this computer's platform), `--dir`
 * (an unpacked folder instead of installers), `--publish never|always|onTag|onTagOrDraft` (default
 * never: uploading needs GH_TOKEN). Empty signing variables (`CSC_LINK=""` from an absent CI
 * secret) are removed first; `AVAIL_WINDOWS_PUBLISHER` names the Windows publisher. Output:
 * dist/desktop/. Works on Node 20 (no native modules are rebuilt). Refuses, with one sentence,
 * only what cannot work: a dmg off macOS, an nsis installer off Windows without `wine` on PATH, an
 * unknown flag, and publish variables that cannot work.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describePublish, publishConfig, PublishConfigError } from './publish-config.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PUBLISH_POLICIES = ['never', 'always', 'onTag', 'onTagOrDraft'];
const PLATFORM_FLAGS = { '--linux': 'linux', '--mac': 'mac', '--win': 'win' };
const HOST_PLATFORM = { linux: 'linux', darwin: 'mac', win32: 'win' };

/** Whether an executable named `wine` (or `wine64`) is on PATH. */
export function wineOnPath(env = process.env) {
  const exts = process.platform === 'win32' ? ['.exe', ''] : [''];
  return (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => ['wine', 'wine64'].some((name) => exts.some((ext) => existsSync(join(dir, name + ext)))));
}

/**
 * What to build for the command-line flags, or why not.
 *
 * @param {string[]} argv the flags (process.argv.slice(2))
 * @param {{ hostPlatform: string, hasWine: boolean }} host `process.platform` and {@link wineOnPath}
 * @returns {{ ok: true, platforms: ('linux'|'mac'|'win')[], dir: boolean, publish: string } | { ok: false, reason: string }}
 */
export function distPlan(argv, host) {
  const platforms = [];
  let dir = false;
  let publish = 'never';
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg in PLATFORM_FLAGS) {
      if (!platforms.includes(PLATFORM_FLAGS[arg])) platforms.push(PLATFORM_FLAGS[arg]);
    } else if (arg === '--dir') dir = true;
    else if (arg === '--publish' || arg.startsWith('--publish=')) {
      const value = arg === '--publish' ? argv[++i] : arg.slice('--publish='.length);
      if (!PUBLISH_POLICIES.includes(value)) return { ok: false, reason: `--publish takes one of ${PUBLISH_POLICIES.join(', ')} (got ${JSON.stringify(value ?? '')}).` };
      publish = value;
    } else return { ok: false, reason: `Unknown flag ${JSON.stringify(arg)}: dist takes --linux, --mac, --win, --dir and --publish <policy>.` };
  }
  if (platforms.length === 0) {
    const own = HOST_PLATFORM[host.hostPlatform];
    if (!own) return { ok: false, reason: `electron-builder does not package for ${host.hostPlatform}: pass --linux, --mac or --win.` };
    platforms.push(own);
  }
  if (!dir && platforms.includes('mac') && host.hostPlatform !== 'darwin') {
    return { ok: false, reason: 'A dmg can only be built on macOS (it needs hdiutil); build --mac on a Mac, or --mac --dir for an unpacked app.' };
  }
  if (!dir && platforms.includes('win') && host.hostPlatform !== 'win32' && !host.hasWine) {
    return { ok: false, reason: 'An nsis installer off Windows needs wine on PATH; install wine, build --win on Windows, or use --win --dir.' };
  }
  return { ok: true, platforms, dir, publish };
}

/**
 * electron-builder's signing variables. A CI workflow passes an absent secret as an empty string,
 * but electron-builder 26.17 skips signing only when they are absent (`null`): an empty
 * `CSC_LINK` makes the macOS build fail with "<repository> not a file".
 */
export const SIGNING_VARIABLES = ['CSC_LINK', 'CSC_KEY_PASSWORD', 'CSC_INSTALLER_LINK', 'CSC_INSTALLER_KEY_PASSWORD', 'WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD'];

/**
 * The signing variables of {@link SIGNING_VARIABLES} that are set but empty (or only spaces) in
 * `env`: `main()` deletes them from `process.env` before electron-builder reads it, so an unset
 * secret means "unsigned", as it does outside CI.
 *
 * @param {Record<string, string | undefined>} env the environment (`process.env`)
 * @returns {string[]} the names to delete, in {@link SIGNING_VARIABLES} order
 */
export function emptySigningVariables(env) {
  return SIGNING_VARIABLES.filter((name) => typeof env[name] === 'string' && env[name].trim() === '');
}

/**
 * The configuration handed to electron-builder's `build()`: electron-builder.yml (`extends`) with
 * the build-time publish setting and, when `AVAIL_WINDOWS_PUBLISHER` is set (the Windows signing
 * certificate's subject CN), `win.signtoolOptions.publisherName` — the name electron-updater on
 * Windows requires an update's signature to carry. Without it electron-builder takes the name from
 * whatever certificate it saw (`WIN_CSC_LINK`, else `CSC_LINK`), or none.
 *
 * @param {object | null} publish {@link publishConfig}'s answer (`null`: no update source)
 * @param {Record<string, string | undefined>} env the environment (`process.env`)
 * @returns {{ extends: string, publish: object | null, win?: { signtoolOptions: { publisherName: string[] } } }}
 */
export function builderConfig(publish, env) {
  // `extends` with a file name loads electron-builder.yml; the keys beside it are deep-merged over it
  // (so `win.signtoolOptions.sign` from the yml stays). `publish: null` (not absent): electron-builder
  // would otherwise guess GitHub from package.json.
  const config = { extends: 'electron-builder.yml', publish };
  const publisher = (env.AVAIL_WINDOWS_PUBLISHER ?? '').trim();
  if (publisher !== '') config.win = { signtoolOptions: { publisherName: [publisher] } };
  return config;
}

/** Runs a command from the repository root; exits with its status when it fails. */
function step(label, cmd, args) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error(`${label} failed.`);
    process.exit(result.status ?? 1);
  }
}

async function main() {
  const plan = distPlan(process.argv.slice(2), { hostPlatform: process.platform, hasWine: wineOnPath() });
  if (!plan.ok) {
    console.error(plan.reason);
    process.exit(1);
  }
  let publish;
  try {
    publish = publishConfig(process.env);
  } catch (error) {
    if (error instanceof PublishConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  step('web build (web/dist)', 'npm', ['run', 'build', '-w', 'web']);
  step('desktop bundles (desktop/dist)', process.execPath, [join(root, 'desktop', 'scripts', 'build.mjs')]);

  console.log(`\n▶ electron-builder: ${plan.platforms.join(', ')}${plan.dir ? ' (unpacked folder)' : ''}`);
  console.log(describePublish(publish));
  // Hook paths in the yml (./desktop/scripts/…) are resolved from the working directory.
  process.chdir(root);
  for (const name of emptySigningVariables(process.env)) delete process.env[name];
  const { build } = await import('electron-builder');
  const targets = plan.dir ? ['dir'] : [];
  const artifacts = await build({
    projectDir: root,
    config: builderConfig(publish, process.env),
    publish: plan.publish,
    ...Object.fromEntries(plan.platforms.map((p) => [p, targets])),
  });
  console.log(`\ndist: ${artifacts.length} file(s) in dist/desktop/`);
  for (const file of artifacts) console.log(`  ${file}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
