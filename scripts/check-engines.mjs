#!/usr/bin/env node
/**
 * `npm run check:engines` (a step of `npm test`): the Node range this project claims
 * (`engines.node` of package.json) must hold for every installed package, so `npm install` on a
 * supported Node prints no EBADENGINE and nothing we run needs a newer Node than we say.
 *
 * Walks node_modules (nested ones too), reads each package's `engines.node` and checks it against
 * the *lowest* Node of our own range (semver.minVersion) and against the running Node.
 * Exit 1 with the list of packages that want more.
 *
 * One exception, stated rather than hidden: the desktop packaging chain (electron-builder →
 * @electron/rebuild 4 → node-abi 4) wants Node ≥ 22.12. It only runs in `npm run dist -w desktop`,
 * which cannot run on this machine anyway (no Electron binary), and its older line (@electron/rebuild
 * 3) installs a GitHub tarball that the npm registry alone cannot serve. `desktop/scripts/dist-check.mjs`
 * refuses to package on an older Node with that reason.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const range = own.engines?.node;
if (!range) {
  console.error('package.json has no engines.node');
  process.exit(1);
}
const lowest = semver.minVersion(range).version;

/** Packaging-only packages allowed to want a newer Node (see the file comment). */
export const PACKAGING_ONLY = new Set(['@electron/rebuild', 'node-abi']);

const problems = [];
let checked = 0;
function walk(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    if (entry.name.startsWith('.')) continue;
    if (entry.name.startsWith('@')) {
      walk(join(dir, entry.name));
      continue;
    }
    const pkgDir = join(dir, entry.name);
    const file = join(pkgDir, 'package.json');
    if (!existsSync(file)) continue;
    let pkg;
    try {
      pkg = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    const wants = typeof pkg.engines?.node === 'string' ? pkg.engines.node : null;
    if (wants && pkg.name && semver.validRange(wants)) {
      checked++;
      const ok = semver.satisfies(lowest, wants, { includePrerelease: true }) && semver.satisfies(process.version, wants, { includePrerelease: true });
      if (!ok && !(PACKAGING_ONLY.has(pkg.name) && semver.major(semver.minVersion(wants)) <= 22))
        problems.push(`${pkg.name}@${pkg.version} wants node ${wants} (${pkgDir.slice(root.length + 1)})`);
    }
    walk(join(pkgDir, 'node_modules'));
  }
}
walk(join(root, 'node_modules'));
for (const ws of own.workspaces ?? []) walk(join(root, ws, 'node_modules'));

if (!semver.satisfies(process.version, range)) problems.unshift(`this Node (${process.version}) is outside engines.node ${range}`);
if (problems.length) {
  console.error(`engines: ${problems.length} package(s) need a Node newer than ${range} claims:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`engines: ${checked} packages declare a Node range; all accept node ${lowest} (lowest of ${range}) and ${process.version}.`);
