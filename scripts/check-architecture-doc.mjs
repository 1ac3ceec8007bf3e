#!/usr/bin/env node
/**
 * `docs/architecture.md` stays true (a step of `npm test`): its "Folders" table names every folder
 * of the repository, and only folders (or files) that exist.
 *
 * - Each row's first cell is a path in backticks (`server/src/store/`); it must exist.
 * - Every folder holding tracked files (`git ls-files`; build output and node_modules are not
 *   tracked) must be named: a row of its own or of a folder inside it, or its parent's row (or an
 *   ancestor's) mentioning it as `name/` in backticks. Data fixtures below a `conformance/` folder
 *   are the cases' files, not code folders, and are exempt.
 * - The server's module rows follow the module tiers of eslint.config.js (bottom first), the layer
 *   order the doc promises.
 * Prints what is missing or stale and exits 1; prints a one-line count and exits 0 when true.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
const table = doc.slice(doc.indexOf('## Folders'));

/** @type {Array<{ path: string, text: string }>} */
const rows = [];
for (const line of table.split('\n')) {
  const m = /^\| `([^`]+)`[^|]*\| (.*)\|\s*$/.exec(line);
  if (m) rows.push({ path: m[1].replace(/\/$/, ''), text: m[2] });
}

const problems = [];
for (const { path } of rows) if (!existsSync(join(root, path))) problems.push(`row for \`${path}\`: no such folder or file`);

const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const folders = new Set();
for (const file of tracked) {
  for (let d = posix.dirname(file); d !== '.'; d = posix.dirname(d)) folders.add(d);
}

const mentions = (rowText, name) => rowText.includes(`\`${name}/\``) || rowText.includes(`\`${name}/`);
function named(folder) {
  if (rows.some((r) => r.path === folder || r.path.startsWith(`${folder}/`))) return true;
  const name = posix.basename(folder);
  for (let up = posix.dirname(folder); up !== '.'; up = posix.dirname(up)) {
    if (rows.some((r) => r.path === up && mentions(r.text, name))) return true;
  }
  return false;
}
for (const folder of [...folders].sort()) {
  if (folder.split('/').slice(0, -1).includes('conformance')) continue;
  if (!named(folder)) problems.push(`folder \`${folder}/\` is not named in docs/architecture.md (a row of its own, or \`${posix.basename(folder)}/\` in its parent's row)`);
}

// The module rows in tier order (eslint.config.js MODULE_TIERS, bottom first).
const eslintConfig = readFileSync(join(root, 'eslint.config.js'), 'utf8');
const tiers = /const MODULE_TIERS = (\[[\s\S]*?\n\]);/.exec(eslintConfig);
if (tiers) {
  const order = JSON.parse(tiers[1].replace(/'/g, '"').replace(/,(\s*[\]}])/g, '$1')).flat();
  const moduleRows = rows.map((r) => /^server\/src\/modules\/([^/]+)$/.exec(r.path)?.[1]).filter(Boolean);
  const seen = [...new Set(moduleRows)];
  const expected = order.filter((m) => seen.includes(m));
  if (seen.join() !== expected.join()) problems.push(`server module rows are not in tier order: ${seen.join(', ')} (tiers: ${expected.join(', ')})`);
}

if (problems.length) {
  console.error(`docs/architecture.md is out of date:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`docs/architecture.md: ${rows.length} rows, every one of ${folders.size} tracked folders named`);
