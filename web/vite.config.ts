import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
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

export default defineConfig({
  plugins: [react(), serviceWorker()],
  server: {
    port: 5173,
    proxy: { '/api': { target: process.env.VITE_API_TARGET ?? 'http://localhost:3000', changeOrigin: true } },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 400 },
});
