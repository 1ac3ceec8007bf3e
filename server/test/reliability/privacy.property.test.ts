/**
 * Privacy property (issue 12): whatever an owner's calendars hold, no byte of any public
 * response, header, server-rendered page or log line carries an event's text.
 *
 * fast-check builds random calendars whose every text field — SUMMARY, LOCATION, DESCRIPTION,
 * COMMENT, CATEGORIES, ORGANIZER/ATTENDEE common names and addresses, an X- property, a VALARM's
 * DESCRIPTION, recurring series and their RECURRENCE-ID overrides — carries a unique marker.
 * Each is served by a local ICS server and connected through the real API; then visitors read the
 * availability API in several zones and ranges, the server-rendered page, and send a proposal;
 * everything they receive and every log line the server wrote is scanned for every marker.
 * CI: 1,000 calendars (50 owners × 20); `npm run test:reliability`: × RELIABILITY_SCALE.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { openContent } from '../../src/lib/crypto.ts';
import { buildUser } from '../factories.ts';
import { startIcsServer, type IcsServer } from '../ics-server.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { reportReliability, SCALE } from './reliability-report.ts';

const NOW = Date.parse('2030-01-07T08:00:00Z'); // a Monday
const OWNERS = 50 * SCALE;
const CALENDARS_PER_OWNER = 20;
const ZONES = ['Europe/Brussels', 'America/New_York', 'Asia/Kolkata', 'Pacific/Auckland'];

let t: TestApp;
let ics: IcsServer;
let page: ReturnType<typeof createApp>;
const logLines: string[] = [];

beforeAll(async () => {
  ics = await startIcsServer();
  t = await createTestApp({
    env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' },
    rateLimits: { publicPerIp: { windowMs: 60_000, limit: 1_000_000 }, proposalsPerIp: { windowMs: 60_000, limit: 1_000_000 }, proposalsPerOwner: { windowMs: 60_000, limit: 1_000_000 } },
    logStream: { write: (line: string) => void logLines.push(line) },
  });
  t.clock.set(NOW);
  // The server-rendered page needs a build: a minimal one whose renderer prints every window.
  const dist = path.join(t.testDb.dir, 'web-dist-privacy');
  mkdirSync(path.join(dist, 'ssr'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'public.html'), '<!doctype html><html><head><title>Availability · Avail</title></head><body><div id="root"><!--ssr-outlet--></div><!--ssr-data--></body></html>');
  writeFileSync(
    path.join(dist, 'ssr', 'public-ssr.js'),
    `export const PUBLIC_BOOT_ID = 'avail-public-data';
export function renderPublicPage(boot) { return { html: JSON.stringify(boot.data).replace(/</g, '&lt;'), json: JSON.stringify(boot).replace(/</g, '\\\\u003c'), title: 'Availability · Avail' }; }`,
  );
  page = createApp({ ...t.deps, config: { ...t.config, WEB_DIST_DIR: dist } });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await ics?.close();
});

const fold = (line: string) => {
  // RFC 5545 §3.1: lines longer than 75 octets are folded (CRLF + space).
  const out: string[] = [];
  for (let i = 0; i < line.length; i += 70) out.push((i ? ' ' : '') + line.slice(i, i + 70));
  return out.join('\r\n');
};
const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');
const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

interface EventSpec {
  startHour: number;
  dayOffset: number;
  minutes: number;
  weekly: boolean;
  override: boolean;
  text: string;
}

/** One calendar: events whose every text field holds `marker` (plus random text around it). */
function calendarOf(marker: string, events: EventSpec[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//avail-privacy//EN', `X-WR-CALNAME:${esc(`${marker} cal`)}`];
  events.forEach((e, i) => {
    const start = NOW + e.dayOffset * 86_400_000 + e.startHour * 3_600_000;
    const m = (field: string) => esc(`${marker}-${field} ${e.text}`);
    const uid = `${marker}-uid-${i}@privacy.test`;
    const body = [
      `UID:${uid}`,
      `DTSTAMP:${stamp(NOW)}`,
      `DTSTART:${stamp(start)}`,
      `DTEND:${stamp(start + e.minutes * 60_000)}`,
      fold(`SUMMARY:${m('summary')}`),
      fold(`LOCATION:${m('location')}`),
      fold(`DESCRIPTION:${m('description')}`),
      fold(`COMMENT:${m('comment')}`),
      fold(`CATEGORIES:${m('category')}`),
      fold(`ORGANIZER;CN="${marker}-organizer":mailto:${marker}-org@example.com`),
      fold(`ATTENDEE;CN="${marker}-attendee";PARTSTAT=ACCEPTED:mailto:${marker}-att@example.com`),
      fold(`X-PRIVATE-NOTE:${m('x')}`),
      ...(e.weekly ? ['RRULE:FREQ=WEEKLY;COUNT=4'] : []),
      'BEGIN:VALARM', 'ACTION:DISPLAY', fold(`DESCRIPTION:${m('alarm')}`), 'TRIGGER:-PT10M', 'END:VALARM',
    ];
    lines.push('BEGIN:VEVENT', ...body, 'END:VEVENT');
    if (e.weekly && e.override) {
      const second = start + 7 * 86_400_000;
      lines.push(
        'BEGIN:VEVENT', `UID:${uid}`, `DTSTAMP:${stamp(NOW)}`, `RECURRENCE-ID:${stamp(second)}`,
        `DTSTART:${stamp(second + 3_600_000)}`, `DTEND:${stamp(second + 3_600_000 + e.minutes * 60_000)}`,
        fold(`SUMMARY:${m('override')}`), fold(`LOCATION:${m('override-location')}`), 'END:VEVENT',
      );
    }
  });
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

const eventArb = fc.record({
  startHour: fc.integer({ min: 0, max: 22 }),
  dayOffset: fc.integer({ min: 0, max: 27 }),
  minutes: fc.integer({ min: 15, max: 180 }),
  weekly: fc.boolean(),
  override: fc.boolean(),
  // Text around the marker: unicode, quotes, angle brackets, JSON and HTML metacharacters.
  text: fc.string({ unit: 'grapheme', maxLength: 40 }),
});
const calendarArb = fc.array(eventArb, { minLength: 1, maxLength: 4 });

describe('privacy: no event text reaches the public path or the logs', () => {
  it(`${OWNERS * CALENDARS_PER_OWNER} random calendars, every public response, header, page and log line scanned`, async () => {
    let owners = 0;
    let requests = 0;
    let calendars = 0;
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(calendarArb, { minLength: CALENDARS_PER_OWNER, maxLength: CALENDARS_PER_OWNER }), async (cals) => {
        owners++;
        const slug = `priv${owners}x${Math.random().toString(36).slice(2, 7)}`;
        const owner = await buildUser(t, { username: slug, timezone: ZONES[owners % ZONES.length] });
        const rules = await request(t.app).post('/api/me/availability-rules').set(owner.auth).send({ rules: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time_local: '06:00', end_time_local: '22:00' })) });
        requests++;
        if (rules.status !== 200) failures.push(`rules ${rules.status}`);
        const markers: string[] = [];
        const before = logLines.length;
        for (const [i, events] of cals.entries()) {
          const marker = `MRK${owners}q${i}z${Math.random().toString(36).slice(2, 8)}`;
          markers.push(marker);
          const feed = `/${slug}-${i}.ics`;
          ics.set(feed, { ics: calendarOf(marker, events) });
          const res = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: ics.url(feed) });
          requests++;
          calendars++;
          if (res.status !== 201) failures.push(`connect ${res.status} ${JSON.stringify(res.body)}`);
        }
        // What visitors receive.
        const seen: string[] = [];
        const keep = (res: request.Response) => {
          requests++;
          seen.push(JSON.stringify(res.headers), res.text ?? '');
        };
        const availability = await request(t.app).get(`/api/public/${slug}/availability`);
        keep(availability);
        for (const tz of ZONES) {
          keep(await request(t.app).get(`/api/public/${slug}/availability`).query({ tz, range: '2030-01-07..2030-02-03' }));
        }
        keep(await request(page).get(`/${slug}`));
        keep(await request(page).get(`/u/${slug}`));
        // A proposal in the first free window, and one over a busy time.
        const first = availability.body?.availability?.windows?.[0];
        if (first) {
          const start = Date.parse(first.start);
          keep(
            await request(t.app)
              .post(`/api/public/${slug}/proposals`)
              .send({ start: new Date(start).toISOString(), end: new Date(start + 15 * 60_000).toISOString(), name: 'Vera Visitor', email: 'vera@example.com', visitor_timezone: 'UTC' }),
          );
        }
        keep(
          await request(t.app)
            .post(`/api/public/${slug}/proposals`)
            .send({ start: '2030-01-07T00:00:00Z', end: '2030-01-07T23:00:00Z', name: 'Vera Visitor', email: 'vera@example.com', visitor_timezone: 'UTC' }),
        );
        const logs = logLines.slice(before).join('\n');
        for (const marker of markers) {
          if (seen.some((s) => s.includes(marker))) failures.push(`public response carries ${marker}`);
          if (logs.includes(marker)) failures.push(`log carries ${marker}`);
        }
        return failures.length === 0;
      }),
      { numRuns: OWNERS, endOnFailure: true },
    );
    reportReliability({ check: 'privacy (calendars connected, responses and logs scanned)', requests, trials: calendars, failures: failures.length });
    expect(failures).toEqual([]);
    // The markers did reach the server — sealed at rest, never plain in the table — and the owner
    // reads them back: the scan looked at real content.
    const stored = await t.db.selectFrom('calendar_events').select('title').limit(200).execute();
    expect(stored.length).toBeGreaterThan(0);
    // (Sealed = the enc:v1 form; a ciphertext is random base64url, so it is not searched for text.)
    expect(stored.every((r) => r.title.startsWith('enc:v1.'))).toBe(true);
    expect(stored.some((r) => openContent(r.title, t.config.AVAIL_SECRET_KEY).includes('MRK'))).toBe(true);
  }, 600_000);
});
