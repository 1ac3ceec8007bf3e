/** The public page's JavaScript budget (issue 11, P3), measured on a web build without a browser. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** ≤ 70 KB of gzipped JavaScript for `/{username}`. */
export const PUBLIC_JS_BUDGET_BYTES = 70 * 1024;

/**
 * Gzipped bytes (level 9) of the JavaScript a built public page can load: the scripts and
 * modulepreloads of `dist/public.html` and, transitively, every chunk they import statically or
 * dynamically (`"./x.js"` / `"/assets/x.js"` references). Returns the files and the sum.
 */
export function publicPageStaticJs(dist: string): { files: Record<string, number>; total: number } {
  const html = readFileSync(path.join(dist, 'public.html'), 'utf8');
  const queue = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const files: Record<string, number> = {};
  while (queue.length) {
    const rel = queue.shift()!;
    if (rel in files) continue;
    const code = readFileSync(path.join(dist, rel));
    files[rel] = gzipSync(code, { level: 9 }).length;
    for (const m of code.toString('utf8').matchAll(/["'`](?:\.\/|\/assets\/)([\w.-]+\.js)["'`]/g)) queue.push(`assets/${m[1]}`);
  }
  return { files, total: Object.values(files).reduce((a, b) => a + b, 0) };
}

