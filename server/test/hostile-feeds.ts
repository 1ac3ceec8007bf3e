/**
 * The hostile calendar feeds of issue 11, generated (never stored large): each `build(now)` makes
 * the bytes to serve for a sync at `now` (UTC epoch ms), with its events inside the sync horizon.
 * Used by the isolation tests (sync-isolation.test.ts) and the bench (scripts/bench/isolation.bench.ts).
 *
 * `expect` is what Avail does with it: 'refused' (connection error, nothing stored / old data
 * kept) or 'bounded' (imported, within the per-connection caps).
 */
import { gzipSync } from 'node:zlib';

export interface HostileFeed {
  name: string;
  expect: 'refused' | 'bounded';
  /** Owner-facing error a refusal shows (matched against last_error / the 400's `error`). */
  error?: RegExp;
  build(now: number): { ics?: string; body?: Buffer; headers?: Record<string, string> };
}

const DAY = 86_400_000;

/** `YYYYMMDDTHHMMSSZ` of an instant. */
export function icsUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

function calendar(lines: string[]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//avail-test//hostile//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
}

function vevent(uid: string, start: number, end: number, extra: string[] = []): string[] {
  return ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20300101T000000Z', `DTSTART:${icsUtc(start)}`, `DTEND:${icsUtc(end)}`, 'SUMMARY:Hostile', ...extra, 'END:VEVENT'];
}

/** Next whole hour after `now` plus `days`. */
const anchor = (now: number, days = 1) => Math.ceil(now / 3_600_000) * 3_600_000 + days * DAY;

export const HOSTILE_FEEDS: HostileFeed[] = [
  {
    name: '20 x FREQ=MINUTELY;COUNT=45000',
    expect: 'refused',
    error: /expands to more than 20,000 events between 30 days ago and 400 days ahead/,
    build(now) {
      const s = anchor(now);
      const lines: string[] = [];
      for (let i = 0; i < 20; i++) lines.push(...vevent(`minutely-${i}@hostile`, s + i * 1_000, s + i * 1_000 + 30_000, ['RRULE:FREQ=MINUTELY;COUNT=45000']));
      return { ics: calendar(lines) };
    },
  },
  {
    name: 'FREQ=SECONDLY without end',
    expect: 'refused',
    error: /more than (50000 occurrences|20,000 events)/,
    build(now) {
      const s = anchor(now);
      return { ics: calendar(vevent('secondly@hostile', s, s + 500, ['RRULE:FREQ=SECONDLY'])) };
    },
  },
  {
    name: '100k EXDATEs on 100k lines',
    expect: 'bounded',
    build(now) {
      const s = anchor(now, -10);
      const ex: string[] = [];
      for (let k = 0; k < 100_000; k++) ex.push(`EXDATE:${icsUtc(s + k * 60_000)}`);
      return { ics: calendar(vevent('exdates-lines@hostile', s, s + 3_600_000, ['RRULE:FREQ=DAILY;COUNT=400', ...ex])) };
    },
  },
  {
    name: '100k EXDATEs on one line',
    expect: 'bounded',
    build(now) {
      const s = anchor(now, -10);
      const ex: string[] = [];
      for (let k = 0; k < 100_000; k++) ex.push(icsUtc(s + k * 60_000));
      return { ics: calendar(vevent('exdates-line@hostile', s, s + 3_600_000, ['RRULE:FREQ=DAILY;COUNT=400', `EXDATE:${ex.join(',')}`])) };
    },
  },
  {
    name: '33k plain events in 9.5 MB',
    expect: 'refused',
    error: /expands to more than 20,000 events/,
    build(now) {
      const s = anchor(now);
      const pad = `DESCRIPTION:${'x'.repeat(118)}`;
      const lines: string[] = [];
      for (let i = 0; i < 33_000; i++) {
        const start = s + (i % 390) * DAY + Math.floor(i / 390) * 600_000;
        lines.push(...vevent(`plain-${i}@hostile`, start, start + 1_800_000, [pad]));
      }
      return { ics: calendar(lines) };
    },
  },
  {
    name: '100k nested VEVENTs',
    expect: 'refused',
    error: /Calendar data could not be read: components are nested more than 16 deep/,
    build(now) {
      const s = anchor(now);
      const open: string[] = [];
      for (let i = 0; i < 100_000; i++) open.push('BEGIN:VEVENT', `UID:nested-${i}@hostile`, `DTSTART:${icsUtc(s + i * 60_000)}`);
      const close = new Array<string>(100_000).fill('END:VEVENT');
      return { ics: calendar([...open, ...close]) };
    },
  },
  {
    name: 'garbage VTIMEZONE',
    expect: 'refused',
    error: /Calendar data could not be read: time zone "Garbage\/Zone"/,
    build(now) {
      const s = anchor(now);
      const tz = [
        'BEGIN:VTIMEZONE', 'TZID:Garbage/Zone',
        'BEGIN:STANDARD', 'DTSTART:16010101T000000', 'RRULE:FREQ=SECONDLY', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'END:STANDARD',
        'BEGIN:DAYLIGHT', 'DTSTART:garbage', 'TZOFFSETFROM:+99', 'TZOFFSETTO:nonsense', 'END:DAYLIGHT',
        'END:VTIMEZONE',
      ];
      const d = icsUtc(s).slice(0, 15);
      const ev = ['BEGIN:VEVENT', 'UID:tz@hostile', 'DTSTAMP:20300101T000000Z', `DTSTART;TZID=Garbage/Zone:${d}`, 'DURATION:PT1H', 'SUMMARY:Hostile', 'END:VEVENT'];
      return { ics: calendar([...tz, ...ev]) };
    },
  },
  {
    name: 'gzip bomb (64 MB inflated)',
    expect: 'refused',
    error: /Calendar feed is larger than 10 MB/,
    build() {
      const inflated = Buffer.alloc(64 * 1024 * 1024, 0x20);
      Buffer.from('BEGIN:VCALENDAR\r\n').copy(inflated);
      return { body: gzipSync(inflated, { level: 1 }), headers: { 'content-encoding': 'gzip' } };
    },
  },
];
