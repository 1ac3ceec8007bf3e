/**
 * Conformance suite: one test per case folder of the free-window conformance cases (see `dir`
 * below for where they are read from).
 * Each case runs the same pipeline the server uses: validate the owner's schedule (422), resolve
 * the range (400), parse + expand each calendar on its own, compute the free windows at `now`.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { computeFreeWindows, findOwnerScheduleProblem, formatWindows, formatInstant } from '../src/domain/free-windows.ts';
import { resolveRangeObject } from '../src/domain/public-range.ts';
import { expandBusy, parseCalendar } from '../src/ical/calendar.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/**
 * Where the cases are: AVAIL_CONFORMANCE_DIR, else the team's reference folder beside the checkout
 * (`../shared/conformance/free-windows`, the source of truth when present), else the copy of it
 * kept in this repo (`shared/test/conformance/free-windows`) so a bare clone runs the same 60 cases.
 */
const referenceDir = path.resolve(repoRoot, '../shared/conformance/free-windows');
const dir = process.env.AVAIL_CONFORMANCE_DIR ?? (existsSync(referenceDir) ? referenceDir : path.join(repoRoot, 'shared/test/conformance/free-windows'));

interface Case {
  id: string;
  timezone: string;
  rules: Array<{ weekday: number; start_time_local: string; end_time_local: string }>;
  exceptions: Array<{ id: number; date: string; start_time_local: string | null; end_time_local: string | null }>;
  ics: string[];
  range?: { start: string; end: string; tz?: string };
  now: string;
}
type Expected = { windows: Array<{ start: string; end: string }>; range: { start: string; end: string } } | { error: string };

/** Runs one case; returns what the API would answer. */
export function runCase(caseDir: string): Expected {
  const c = JSON.parse(readFileSync(path.join(caseDir, 'case.json'), 'utf8')) as Case;
  const problem = findOwnerScheduleProblem(c.rules, c.exceptions);
  if (problem) return { error: problem };
  const now = Date.parse(c.now);
  const range = resolveRangeObject(c.range, c.timezone, now);
  if (!range.ok) return { error: range.error };
  const busy: Array<{ start: number; end: number }> = [];
  for (const entry of c.ics) {
    const text = entry.slice(0, 200).includes('BEGIN:VCALENDAR') ? entry : readFileSync(path.join(caseDir, entry), 'utf8');
    const parsed = parseCalendar(text);
    const res = expandBusy(parsed, {
      ownerZone: c.timezone,
      ownerEmails: [],
      rangeStart: range.start,
      rangeEnd: range.end,
    });
    busy.push(...res.intervals);
  }
  const windows = computeFreeWindows({
    timezone: c.timezone,
    rules: c.rules,
    exceptions: c.exceptions,
    busy,
    rangeStart: range.start,
    rangeEnd: range.end,
    now,
  });
  return { windows: formatWindows(windows), range: { start: formatInstant(range.start), end: formatInstant(range.end) } };
}

const cases = existsSync(dir) ? readdirSync(dir).filter((d) => existsSync(path.join(dir, d, 'case.json'))).sort() : [];

describe('free-window conformance', () => {
  it('finds the 60 cases', () => {
    expect(cases.length).toBe(60);
  });
  for (const name of cases) {
    it(name, () => {
      const caseDir = path.join(dir, name);
      const expected = JSON.parse(readFileSync(path.join(caseDir, 'expected.json'), 'utf8')) as Expected;
      const actual = runCase(caseDir);
      if ('error' in expected) {
        expect(actual).toHaveProperty('error');
        const err = (actual as { error: string }).error;
        const expect422 = expected.error.startsWith('invalid input (422)');
        expect(err.startsWith('invalid input (422)')).toBe(expect422);
      } else {
        expect(actual).not.toHaveProperty('error');
        expect(actual).toEqual({ windows: expected.windows, range: expected.range });
      }
    });
  }
});
