/** What the RxDB layer adds to the web bundle (gzip KB, from web/dist; run `npm run build` first). */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Log } from './util.ts';

export function benchRxdbBundle(root: string, log: Log): Record<string, unknown> {
  const assets = path.join(root, 'web/dist/assets');
  if (!existsSync(assets)) return { web_rxdb_layer_gzip_kb: 'web/dist missing: run `npm run build` first' };
  const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
  const rx = files.filter((f) => /rxdb\.info|RxDB|Dexie/.test(readFileSync(path.join(assets, f), 'utf8')));
  const gz = (f: string) => gzipSync(readFileSync(path.join(assets, f))).length;
  const kb = +(rx.reduce((a, f) => a + gz(f), 0) / 1024).toFixed(1);
  log(`web bundle: RxDB layer ${kb} KB gzip in ${rx.length} chunk(s)`);
  return { web_rxdb_layer_gzip_kb: kb, web_rxdb_chunks: rx };
}
