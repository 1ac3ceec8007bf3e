/** Shared helpers of `npm run bench`: step log, sample statistics, medians. Times are milliseconds. */

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
