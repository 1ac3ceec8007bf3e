#!/usr/bin/env node
/**
 * Compiles the server to JavaScript with esbuild (https://esbuild.github.io/api/#build), so
 * production runs `node server/dist/main.js` instead of compiling TypeScript at every start:
 *   src/main.ts                         → dist/main.js           (the server)
 *   src/modules/sync/derive.worker.ts   → dist/derive-worker.mjs (the derive pool's worker thread;
 *                                          derive-pool.ts looks for it beside the running file)
 * ESM for Node (target: the lowest Node of engines), our own code and @avail/shared (TypeScript
 * source) bundled in, every npm package left external (resolved from node_modules at run time).
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist');

/** npm packages stay external; `@avail/*` (workspace TypeScript) and relative imports are bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@avail/') || args.kind === 'entry-point' ? undefined : { path: args.path, external: true }));
  },
};

const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20.19', sourcemap: 'linked', logLevel: 'warning', plugins: [externalPackages] };
const started = Date.now();
rmSync(outdir, { recursive: true, force: true });
await build({ ...common, entryPoints: [join(root, 'src/main.ts')], outfile: join(outdir, 'main.js') });
await build({ ...common, entryPoints: [join(root, 'src/modules/sync/derive.worker.ts')], outfile: join(outdir, 'derive-worker.mjs') });
console.log(`server built to ${outdir} in ${Date.now() - started} ms`);
