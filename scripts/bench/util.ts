/** Shared helpers of `npm run bench`: step log, sample statistics, medians, the bench's own server processes. Times are milliseconds. */
import type { ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

/** Prints one progress line, `[+SS.s] message`, to stdout as the bench goes. */
export type Log = (msg: string) => void;

export function createLog(started = performance.now()): Log {
  return (msg) => {
    const s = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
    process.stdout.write(`[+${s}s] ${msg}\n`);
  };
}

/** `{ n, mean_ms, p50_ms, p95_ms, max_ms }` of samples in ms. */
export function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, mean_ms: +(s.reduce((a, b) => a + b, 0) / s.length).toFixed(3), p50_ms: +q(0.5).toFixed(3), p95_ms: +q(0.95).toFixed(3), max_ms: +s[s.length - 1].toFixed(3) };
}

/** Median of numbers (mean of the two middle ones for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Rounds to `d` decimals. */
export const round = (x: number, d = 3) => +x.toFixed(d);

/** A small deterministic PRNG (mulberry32) so runs are comparable. Returns floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A free TCP port on 127.0.0.1 (the bench's own servers listen there). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Polls `url` every 200 ms until it answers 200 (that response is returned); throws after `ms`. */
export async function waitForOk(url: string, ms = 60_000): Promise<Response> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.status === 200) return r;
      await r.arrayBuffer();
    } catch {
      // not up yet
    }
    if (Date.now() > until) throw new Error(`no 200 from ${url} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Stops a server process: SIGTERM, then SIGKILL after 15 s; resolves when it has exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
