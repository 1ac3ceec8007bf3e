/**
 * Resolving the public API's `range` / `tz` query parameters to instants
 * ("The public API" in `shared/spec/availability-semantics.md`).
 *
 * - `START..END` as ISO dates (`2026-03-23..2026-03-29`): both inclusive, local dates in `tz`
 *   (default: the owner's zone); the range runs from the first instant of `START` to the first
 *   instant of the day after `END` (on a day whose 00:00 does not exist, the first instant that
 *   does). At most 93 dates.
 * - `START..END` as ISO instants with `Z` or a numeric offset (`2026-03-23T00:00:00+01:00`);
 *   `tz` then does not matter (but must still be a known zone). `end − start ≤ 93 × 24 h`.
 * - No range: `[now, now + 28 × 24 h)`.
 * - Always: `end ≥ start`, `end ≤ now + 366 × 24 h`, `tz` a known IANA zone.
 * All instants are UTC epoch milliseconds; errors are messages for a `400 { error }` body.
 */
import { DAY_MS, getIanaZone, isValidIanaZone, parseIsoDate, startOfLocalDay, wallDay, wallFromFields } from './zone-time.ts';
import { formatInstant } from './free-windows.ts';

const DEFAULT_RANGE_MS = 28 * DAY_MS;
const MAX_RANGE_DAYS = 93;
export const HORIZON_MS = 366 * DAY_MS;

export type ResolvedRange = { ok: true; start: number; end: number } | { ok: false; error: string };

const INSTANT_RE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

type Edge = { kind: 'date'; y: number; m: number; d: number } | { kind: 'instant'; ms: number };

function parseEdge(s: string): Edge | string {
  const date = parseIsoDate(s);
  if (date) return { kind: 'date', ...date };
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return `invalid date: ${s}`;
  const m = INSTANT_RE.exec(s);
  if (!m) return `malformed range edge: ${JSON.stringify(s)} (expected YYYY-MM-DD or an ISO instant with Z or an offset)`;
  if (!m[8]) return `instant without a zone: ${s} (add Z or an offset such as +02:00)`;
  const [y, mo, d, h, mi] = [m[1], m[2], m[3], m[4], m[5]].map(Number);
  const sec = m[6] ? Number(m[6]) : 0;
  const frac = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  if (!parseIsoDate(`${m[1]}-${m[2]}-${m[3]}`) || h > 23 || mi > 59 || sec > 59) return `invalid instant: ${s}`;
  let offsetMs = 0;
  const z = m[8].toUpperCase();
  if (z !== 'Z') {
    const om = /^([+-])(\d{2}):?(\d{2})$/.exec(z)!;
    const oh = Number(om[2]), omi = Number(om[3]);
    if (oh > 23 || omi > 59) return `invalid offset in ${s}`;
    offsetMs = (om[1] === '-' ? -1 : 1) * (oh * 60 + omi) * 60_000;
  }
  const local = wallFromFields({ y, m: mo, d, h, mi, s: sec }) + frac;
  return { kind: 'instant', ms: local - offsetMs };
}

/**
 * Resolves the public API's query parameters.
 *
 * @param query `range`: `'START..END'` (absent or empty: the 28-day default); `tz`: visitor's IANA
 *   zone (absent: `ownerZone`).
 * @param ownerZone the owner's IANA zone.
 * @param nowMs the clock, UTC ms.
 * @returns `{ ok: true, start, end }` (UTC ms, not clipped to now) or `{ ok: false, error }`.
 */
export function resolvePublicRange(
  query: { range?: string | null; tz?: string | null },
  ownerZone: string,
  nowMs: number,
): ResolvedRange {
  let zoneName = ownerZone;
  if (query.tz !== undefined && query.tz !== null) {
    if (!isValidIanaZone(query.tz)) return { ok: false, error: `unknown time zone: ${query.tz}` };
    zoneName = query.tz;
  }
  if (!isValidIanaZone(zoneName)) return { ok: false, error: `unknown time zone: ${zoneName}` };
  const horizon = nowMs + HORIZON_MS;
  let start: number;
  let end: number;
  const range = query.range;
  if (range === undefined || range === null || range === '') {
    start = nowMs;
    end = nowMs + DEFAULT_RANGE_MS;
  } else {
    if (typeof range !== 'string') return { ok: false, error: 'malformed range: expected START..END' };
    const parts = range.split('..');
    if (parts.length !== 2) return { ok: false, error: `malformed range: ${JSON.stringify(range)} (expected START..END)` };
    const a = parseEdge(parts[0].trim());
    if (typeof a === 'string') return { ok: false, error: a };
    const b = parseEdge(parts[1].trim());
    if (typeof b === 'string') return { ok: false, error: b };
    if (a.kind === 'date' && b.kind === 'date') {
      const da = wallDay(wallFromFields(a));
      const db = wallDay(wallFromFields(b));
      if (db < da) return { ok: false, error: 'range end is before its start' };
      if (db - da + 1 > MAX_RANGE_DAYS) return { ok: false, error: `range longer than ${MAX_RANGE_DAYS} days` };
      const zone = getIanaZone(zoneName);
      start = startOfLocalDay(zone, a);
      const next = new Date((db + 1) * DAY_MS);
      end = startOfLocalDay(zone, { y: next.getUTCFullYear(), m: next.getUTCMonth() + 1, d: next.getUTCDate() });
    } else if (a.kind === 'instant' && b.kind === 'instant') {
      start = a.ms;
      end = b.ms;
      if (end < start) return { ok: false, error: 'range end is before its start' };
      if (end - start > MAX_RANGE_DAYS * DAY_MS) return { ok: false, error: `range longer than ${MAX_RANGE_DAYS} days` };
    } else {
      return { ok: false, error: 'malformed range: use two dates or two instants' };
    }
  }
  if (end > horizon) {
    return {
      ok: false,
      error: `range ends after now + 366 days (${formatInstant(horizon)}), beyond the busy-time horizon`,
    };
  }
  return { ok: true, start, end };
}

/**
 * The conformance cases' form of a range: `{ start, end, tz? }` (absent: the default range).
 * Same rules and results as {@link resolvePublicRange} with `range = start..end`.
 */
export function resolveRangeObject(
  range: { start: string; end: string; tz?: string | null } | null | undefined,
  ownerZone: string,
  nowMs: number,
): ResolvedRange {
  if (!range) return resolvePublicRange({}, ownerZone, nowMs);
  return resolvePublicRange({ range: `${range.start}..${range.end}`, tz: range.tz }, ownerZone, nowMs);
}
