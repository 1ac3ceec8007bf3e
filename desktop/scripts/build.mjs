#!/usr/bin/env node
/**
 * Builds the desktop app's two bundles with esbuild (https://esbuild.github.io/api/#build):
 *   src/main/main.ts       → dist/main.cjs     (main process)
 *   src/preload/preload.ts → dist/preload.cjs  (sandboxed preload: one file, no Node modules)
 * Both: platform node, format cjs, `electron` external, shared code bundled in.
 *
 * The server the app proposes on first run is fixed here: `AVAIL_SERVER_URL` (an http(s) origin,
 * e.g. `AVAIL_SERVER_URL=https://avail.example.com npm run build -w desktop`), else
 * `DEFAULT_DESKTOP_SERVER_ORIGIN` from shared (http://localhost:3000). The root package.json's
 * `homepage` is fixed here too (`__AVAIL_HOMEPAGE__`, the external-link allow-list's help host).
 */
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// `--outdir DIR` builds elsewhere (npm test bundles into a scratch folder); default desktop/dist.
const outArg = process.argv.indexOf('--outdir');
const outdir = outArg > 0 && process.argv[outArg + 1] ? resolve(process.argv[outArg + 1]) : join(root, 'dist');

/** Same rule as shared's normaliseServerOrigin for what a build may carry: an http(s) origin. */
function serverOrigin(raw) {
  if (raw === undefined || raw.trim() === '') return null;
  let url;
  try {
    url = new URL(raw.trim());
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    console.error(`AVAIL_SERVER_URL must be an http(s) origin like https://avail.example.com (got ${JSON.stringify(raw)})`);
    process.exit(1);
  }
  return url.origin;
}

const origin = serverOrigin(process.env.AVAIL_SERVER_URL);
// The project's homepage (root package.json): its host is on the app's external-link allow-list.
const { homepage } = JSON.parse(readFileSync(join(root, '..', 'package.json'), 'utf8'));
rmSync(outdir, { recursive: true, force: true });

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['electron'],
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'info',
  // With no AVAIL_SERVER_URL the identifier stays undefined and build-constants.ts uses the shared default.
  define: {
    ...(origin ? { __AVAIL_DEFAULT_SERVER_ORIGIN__: JSON.stringify(origin) } : {}),
    ...(typeof homepage === 'string' ? { __AVAIL_HOMEPAGE__: JSON.stringify(homepage) } : {}),
  },
};

await build({ ...common, entryPoints: [join(root, 'src/main/main.ts')], outfile: join(outdir, 'main.cjs') });
await build({ ...common, entryPoints: [join(root, 'src/preload/preload.ts')], outfile: join(outdir, 'preload.cjs') });
console.log(`desktop build: ${outdir}/main.cjs, ${outdir}/preload.cjs (default server ${origin ?? 'http://localhost:3000 (shared default)'})`);
