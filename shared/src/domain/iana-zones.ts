/**
 * IANA time zones through `Intl.DateTimeFormat` (with an explicit `timeZone`, never the process
 * `TZ`): zone look-up by name, its letter case fixed, and fixed-offset zones such as UTC. Offsets
 * are milliseconds, `local = utc + offset`. Re-exported by `zone-time.ts`, the front door.
 */
import { DAY_MS, type TimeZone } from './wall-time.ts';

/** Thrown for an unknown IANA zone name. */
export class UnknownTimeZoneError extends Error {
  constructor(public readonly zoneName: string) {
    super(`unknown time zone: ${zoneName}`);
    this.name = 'UnknownTimeZoneError';
  }
}

interface YearSegments {
  /** Instants at which a new offset starts; `starts[0]` is the first instant of the year. */
  starts: number[];
  offsets: number[];
}

const yearStartCache = new Map<number, number>();
function utcYearStart(y: number): number {
  let v = yearStartCache.get(y);
  if (v === undefined) {
    v = Date.UTC(y, 0, 1);
    yearStartCache.set(y, v);
  }
  return v;
}

/**
 * An IANA zone evaluated through `Intl.DateTimeFormat`. Offsets are computed once per UTC year:
 * the year is sampled every 24 h and every offset change is bisected to the millisecond, so later
 * look-ups are a binary search over a handful of segments (no formatting in hot loops).
 * Limitation: two transitions less than 24 h apart that cancel each other out are not seen
 * (no such transition exists in the tz database after 1900).
 */
class IanaZone implements TimeZone {
  private readonly dtf: Intl.DateTimeFormat;
  private readonly years = new Map<number, YearSegments>();
  private lastSeg: { from: number; to: number; offset: number } = { from: 1, to: 0, offset: 0 };

  constructor(public readonly name: string) {
    this.dtf = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /** Exact offset by formatting (slow path; used only to build the per-year segments). */
  private rawOffset(utcMs: number): number {
    const t = Math.floor(utcMs / 1000) * 1000;
    const parts = this.dtf.formatToParts(new Date(t));
    let y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, bc = false;
    for (const p of parts) {
      switch (p.type) {
        case 'year': y = Number(p.value); break;
        case 'month': mo = Number(p.value); break;
        case 'day': d = Number(p.value); break;
        case 'hour': h = Number(p.value) % 24; break;
        case 'minute': mi = Number(p.value); break;
        case 'second': s = Number(p.value); break;
        case 'era': bc = p.value.startsWith('B'); break;
      }
    }
    if (bc) y = 1 - y;
    const local = Date.UTC(y, mo - 1, d, h, mi, s);
    // Date.UTC maps years 0–99 to 1900–1999; fix them up.
    const fixed = y >= 0 && y < 100 ? new Date(local).setUTCFullYear(y) : local;
    return fixed - t;
  }

  private segmentsFor(year: number): YearSegments {
    let seg = this.years.get(year);
    if (seg) return seg;
    const start = utcYearStart(year);
    const end = utcYearStart(year + 1);
    const starts = [start];
    const offsets = [this.rawOffset(start)];
    let prevT = start;
    let prevO = offsets[0];
    for (let t = start + DAY_MS; ; t += DAY_MS) {
      const tt = Math.min(t, end);
      const o = this.rawOffset(tt);
      if (o !== prevO) {
        // bisect (prevT, tt]: the first instant whose offset differs from prevO
        let lo = prevT, hi = tt;
        while (hi - lo > 1000) {
          const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
          if (mid <= lo) break;
          if (this.rawOffset(mid) === prevO) lo = mid; else hi = mid;
        }
        if (hi < end) {
          starts.push(hi);
          offsets.push(this.rawOffset(hi));
        }
        prevO = o;
      }
      prevT = tt;
      if (tt >= end) break;
    }
    seg = { starts, offsets };
    this.years.set(year, seg);
    return seg;
  }

  offsetAt(utcMs: number): number {
    const last = this.lastSeg;
    if (utcMs >= last.from && utcMs < last.to) return last.offset;
    const year = new Date(utcMs).getUTCFullYear();
    const seg = this.segmentsFor(year);
    const { starts, offsets } = seg;
    let i = starts.length - 1;
    while (i > 0 && starts[i] > utcMs) i--;
    const to = i + 1 < starts.length ? starts[i + 1] : utcYearStart(year + 1);
    this.lastSeg = { from: starts[i], to, offset: offsets[i] };
    return offsets[i];
  }
}

/** A zone with one constant offset (e.g. UTC). */
export class FixedOffsetZone implements TimeZone {
  constructor(public readonly name: string, private readonly offsetMs: number) {}
  offsetAt(): number {
    return this.offsetMs;
  }
}

export const UTC_ZONE: TimeZone = new FixedOffsetZone('UTC', 0);

const ianaCache = new Map<string, TimeZone | null>();

/**
 * `name` with its letter case fixed (`europe/brussels` → `Europe/Brussels`; links such as
 * `Asia/Kolkata` are kept as written), or `null` when `name` is not a zone known to the runtime's
 * IANA database. Numeric offsets (`+02:00`) are not zones.
 */
export function canonicalIanaZone(name: string): string | null {
  const z = ianaZoneOrNull(name);
  return z ? z.name : null;
}

/** `true` when `name` is a known IANA zone name (`Europe/Brussels`, `UTC`, `Etc/GMT+5`). */
export function isValidIanaZone(name: unknown): name is string {
  return typeof name === 'string' && ianaZoneOrNull(name) !== null;
}

function ianaZoneOrNull(name: string): TimeZone | null {
  if (typeof name !== 'string') return null;
  const cached = ianaCache.get(name);
  if (cached !== undefined) return cached;
  let zone: TimeZone | null = null;
  // Intl also accepts offset strings like "+01:00" in newer engines: those are not IANA names.
  if (name.length > 0 && name.length < 100 && /^[A-Za-z]/.test(name) && !/\s/.test(name)) {
    try {
      const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
      // ICU "canonicalises" to old link names (Asia/Kolkata -> Asia/Calcutta): keep the caller's
      // spelling, only fixing its letter case.
      const display = resolved.toLowerCase() === name.toLowerCase() ? resolved : properCase(name);
      zone = resolved === 'UTC' || resolved === 'Etc/UTC' || resolved === 'Etc/GMT'
        ? new FixedOffsetZone(display, 0)
        : new IanaZone(display);
    } catch {
      zone = null; // not a zone this runtime knows: callers treat null as unknown
    }
  }
  ianaCache.set(name, zone);
  return zone;
}

let supportedByLower: Map<string, string> | null = null;
function properCase(name: string): string {
  if (!supportedByLower) {
    supportedByLower = new Map();
    const list = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
    for (const z of list) supportedByLower.set(z.toLowerCase(), z);
  }
  return supportedByLower.get(name.toLowerCase()) ?? name;
}

/**
 * The {@link TimeZone} for an IANA name (cached per name).
 * @throws UnknownTimeZoneError when the name is not a known IANA zone.
 */
export function getIanaZone(name: string): TimeZone {
  const z = ianaZoneOrNull(name);
  if (!z) throw new UnknownTimeZoneError(name);
  return z;
}
