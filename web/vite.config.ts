import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Emits the service worker (src/service-worker/sw.js) as /sw.js with a build id derived from the
 * bundle's file names, so every build with changed files installs a new worker and drops the old
 * caches. Production builds only; main.tsx registers it only then.
 */
function serviceWorker(): Plugin {
  const source = new URL('./src/service-worker/sw.js', import.meta.url);
  return {
    name: 'avail-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const id = createHash('sha256').update(Object.keys(bundle).sort().join('\n')).digest('hex').slice(0, 12);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: readFileSync(source, 'utf8').replaceAll('__BUILD_ID__', id) });
    },
  };
}

/**
 * Writes `file.br` (brotli, RFC 7932, quality 11) and `file.gz` (gzip, level 9) next to every
 * compressible file (HTML, JS, CSS, JSON, SVG, ICS, text; ≥ 1 KB) of the build's output folder
 * (AVAIL_WEB_OUT_DIR too; not ssr/, which is never served), so the server sends them as they are
 * (server/src/http/static-files.ts). A copy is kept only when smaller than its file; files whose
 * copies are already newer (an earlier build into the same folder) are skipped.
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  let outDir = '';
  async function* files(dir: string): AsyncGenerator<string> {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!(dir === outDir && e.name === 'ssr')) yield* files(p);
      } else if (/\.(html|js|mjs|css|json|svg|ics|txt|webmanifest)$/.test(e.name)) yield p;
    }
  }
  const newer = async (copy: string, than: number) => ((await stat(copy).catch(() => null))?.mtimeMs ?? -1) >= than;
  return {
    name: 'avail-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      for await (const file of files(outDir)) {
        const s = await stat(file);
        if (s.size < 1024 || ((await newer(`${file}.br`, s.mtimeMs)) && (await newer(`${file}.gz`, s.mtimeMs)))) continue;
        const data = await readFile(file);
        const [br, gzipped] = await Promise.all([
          brotli(data, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
          gz(data, { level: 9 }),
        ]);
        if (br.length < data.length) await writeFile(`${file}.br`, br);
        if (gzipped.length < data.length) await writeFile(`${file}.gz`, gzipped);
      }
    },
  };
}

/**
 * Three builds (`npm run build`):
 * 1. index.html — the owner's app and marketing pages (React, router, radix, device database).
 * 2. `--mode public`: public.html — the visitor's public page alone (issue 11, P3: ≤ 70 KB of
 *    gzipped JavaScript). React 19's DOM runtime alone is ~65 KB gzipped, so this build maps the
 *    React APIs to Preact's compatibility layer (same components, same source; ~12 KB), and there is
 *    no router, session or device database in it. Written into the same dist/ (not emptied).
 * 3. `--ssr src/public-ssr.tsx --mode public`: the server's renderer of that page (same aliases,
 *    everything bundled) into dist/ssr/public-ssr.js; the server loads it, dist/ssr is never served.
 */
const preactAliases = [
  { find: /^react-dom\/server$/, replacement: 'preact-render-to-string' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
  // react-i18next reads its store through React's useSyncExternalStore shim (a CommonJS copy of the
  // hooks): Preact's compat layer has the hook, so the shim maps there too (one set of hooks).
  { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'preact/compat' },
];

export default defineConfig(({ mode, isSsrBuild }) => {
  const publicPage = mode === 'public';
  // AVAIL_WEB_OUT_DIR (default 'dist'): another folder, so builds under test side by side (each
  // served through WEB_DIST_DIR) never overwrite each other.
  const out = process.env.AVAIL_WEB_OUT_DIR || 'dist';
  return {
    plugins: [react(), ...(publicPage ? [] : [serviceWorker()]), ...(isSsrBuild ? [] : [precompress()])],
    resolve: publicPage ? { alias: preactAliases } : {},
    server: {
      port: 5173,
      proxy: { '/api': { target: process.env.VITE_API_TARGET ?? 'http://localhost:3000', changeOrigin: true } },
    },
    ssr: { noExternal: true },
    build: isSsrBuild
      ? { outDir: `${out}/ssr`, emptyOutDir: true, sourcemap: false, rolldownOptions: { input: 'src/public-ssr.tsx' } }
      : {
          outDir: out,
          emptyOutDir: !publicPage,
          sourcemap: false,
          chunkSizeWarningLimit: 400,
          rolldownOptions: { input: publicPage ? 'public.html' : 'index.html' },
        },
  };
});
