/**
 * The free/busy feed (issue 14 item 1): GET /api/public/:slug/free-busy.ics says exactly what the
 * public page says — read back with a real iCalendar parser (ical.js) and round-tripped through our
 * own engine — and carries nothing but times.
 */
import ICAL from 'ical.js';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subtractIntervals } from '@avail/shared/domain/intervals.ts';
import { paramOf, readComponents } from '@avail/shared/ical/content-lines.ts';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
const NOW = Date.UTC(2026, 2, 20, 12, 0, 30); // Friday 2026-03-20 12:00:30Z
const MINUTE = Math.floor(NOW / 60_000) * 60_000;
const WEEKS8 = 8 * 7 * 86_400_000;
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
});
afterAll(async () => {
  await t.close();
});

async function owner() {
  const username = `fb${Math.random().toString(36).slice(2, 8)}`;
  const built = await buildUser(t, { username, timezone: 'Europe/London', name: 'Olivia Owner' });
  for (const [weekday, start_time_local, end_time_local] of [[0, '09:00', '17:00'], [4, '12:00', '18:00']] as const) {
    await request(t.app).post('/api/me/availability-rules').set(built.auth).send({ weekday, start_time_local, end_time_local }).expect(201);
  }
  // A busy event with a title, a guest and a location that must never appear in the feed.
  const connection_id = crypto.randomUUID();
  await t.db.insertInto('calendar_connections').values({ id: connection_id, user_id: built.user.id, provider: 'ics', name: 'Private', status: 'active', account: 'olivia@acme.example', connected_at: NOW, updated_at: NOW }).execute();
  const s = Date.UTC(2026, 2, 23, 10);
  const e = Date.UTC(2026, 2, 23, 11);
  await t.db.insertInto('calendar_events').values({ id: crypto.randomUUID(), user_id: built.user.id, connection_id, uid: 'evt-uid-123', title: 'Secret board meeting with ACME', start_ms: s, end_ms: e, all_day: 0, is_busy: 1, depends_on_owner_zone: 0 }).execute();
  await t.db.insertInto('busy_intervals').values({ id: crypto.randomUUID(), user_id: built.user.id, connection_id, start_ms: s, end_ms: e, depends_on_owner_zone: 0 }).execute();
  return { ...built, username };
}

/** The page's windows over the feed's range (same instant, same engine). */
async function pageWindows(username: string) {
  const res = await request(t.app)
    .get(`/api/public/${username}/availability`)
    .query({ range: `${new Date(MINUTE).toISOString()}..${new Date(MINUTE + WEEKS8).toISOString()}` })
    .expect(200);
  return (res.body.availability.windows as Array<{ start: string; end: string }>).map((w) => [Date.parse(w.start), Date.parse(w.end)]);
}

describe('GET /api/public/:slug/free-busy.ics', () => {
  it('one VFREEBUSY over 8 weeks: FREE periods = the page, BUSY-UNAVAILABLE for the rest, read by ical.js', async () => {
    const o = await owner();
    t.clock.set(MINUTE); // the page at the feed's instant
    const page = await pageWindows(o.username);
    t.clock.set(NOW);
    const res = await request(t.app).get(`/api/public/${o.username}/free-busy.ics`).expect(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    const text = res.text;
    expect(text).toContain('METHOD:PUBLISH\r\n');
    expect(text).toContain('REFRESH-INTERVAL;VALUE=DURATION:PT15M\r\n');
    expect(text).toContain('X-PUBLISHED-TTL:PT15M\r\n');
    for (const secret of ['Secret', 'ACME', 'evt-uid-123', 'olivia@acme']) expect(text).not.toContain(secret);

    const cal = new ICAL.Component(ICAL.parse(text));
    const fb = cal.getFirstSubcomponent('vfreebusy')!;
    expect((fb.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime()).toBe(MINUTE);
    expect((fb.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().getTime()).toBe(MINUTE + WEEKS8);
    const periods = fb.getAllProperties('freebusy').map((p) => {
      const v = p.getFirstValue() as ICAL.Period;
      return { type: p.getParameter('fbtype'), start: v.start.toJSDate().getTime(), end: v.getEnd().toJSDate().getTime() };
    });
    expect(periods.filter((p) => p.type === 'FREE').map((p) => [p.start, p.end])).toEqual(page);
    // FREE and BUSY-UNAVAILABLE tile the range without gaps or overlaps.
    let cursor = MINUTE;
    for (const p of periods) {
      expect(p.start).toBe(cursor);
      cursor = p.end;
    }
    expect(cursor).toBe(MINUTE + WEEKS8);
    expect(page.length).toBeGreaterThan(10);
    expect(page.some(([s]) => s === Date.UTC(2026, 2, 23, 11))).toBe(true); // Monday 09–17 London minus the 10–11 UTC event
  });

  it('round-trips through our own reader and interval engine: the range minus the BUSY-UNAVAILABLE periods gives back the FREE windows', async () => {
    const o = await owner();
    const text = (await request(t.app).get(`/api/public/${o.username}/free-busy.ics`).expect(200)).text;
    const vfb = readComponents(text).roots[0]!.components.find((c) => c.name === 'VFREEBUSY')!;
    const period = (v: string) => {
      const [start, end] = v.split('/').map((x) => Date.parse(x.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z')));
      return { start: start!, end: end! };
    };
    const props = vfb.props.filter((p) => p.name === 'FREEBUSY');
    const free = props.filter((p) => paramOf(p, 'FBTYPE') === 'FREE').map((p) => period(p.value));
    const busy = props.filter((p) => paramOf(p, 'FBTYPE') === 'BUSY-UNAVAILABLE').map((p) => period(p.value));
    expect(free.length).toBeGreaterThan(10);
    expect(subtractIntervals([{ start: MINUTE, end: MINUTE + WEEKS8 }], busy)).toEqual(free);
  });

  it('format=events: the free windows as "Free" transparent events; ETag and 304; unknown slug 404; bad format 400', async () => {
    const o = await owner();
    const res = await request(t.app).get(`/api/public/${o.username}/free-busy.ics?format=events`).expect(200);
    const events = new ICAL.Component(ICAL.parse(res.text)).getAllSubcomponents('vevent');
    t.clock.set(MINUTE);
    const page = await pageWindows(o.username);
    t.clock.set(NOW);
    expect(events.map((e) => [(e.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime(), (e.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().getTime()])).toEqual(page);
    expect(new Set(events.map((e) => e.getFirstPropertyValue('summary')))).toEqual(new Set(['Free']));
    expect(new Set(events.map((e) => e.getFirstPropertyValue('transp')))).toEqual(new Set(['TRANSPARENT']));

    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    await request(t.app).get(`/api/public/${o.username}/free-busy.ics?format=events`).set('If-None-Match', etag).expect(304);
    // A change of the owner's data changes the feed: no 304 for the old tag.
    await request(t.app).post('/api/me/availability-rules').set(o.auth).send({ weekday: 2, start_time_local: '08:00', end_time_local: '10:00' }).expect(201);
    const after = await request(t.app).get(`/api/public/${o.username}/free-busy.ics?format=events`).set('If-None-Match', etag).expect(200);
    expect(after.headers.etag).not.toBe(etag);

    const unknown = await request(t.app).get('/api/public/nobody-at-all/free-busy.ics').expect(404);
    expect(unknown.body).toEqual({ error: 'This availability link could not be found.', code: 'not_found' });
    expect((await request(t.app).get(`/api/public/${o.username}/free-busy.ics?format=json`).expect(400)).body.code).toBe('invalid_format');
  });

  it("says its calendar name and 'Free' in ?lang= or Accept-Language (issue 22), English otherwise", async () => {
    const o = await owner();
    const text = async (q: string, headers: Record<string, string> = {}) => {
      const res = await request(t.app).get(`/api/public/${o.username}/free-busy.ics${q}`).set(headers).expect(200);
      expect(res.headers.vary).toMatch(/Accept-Language/);
      const cal = new ICAL.Component(ICAL.parse(res.text));
      return { name: cal.getFirstPropertyValue('x-wr-calname'), summaries: cal.getAllSubcomponents('vevent').map((v) => v.getFirstPropertyValue('summary')) };
    };
    expect(await text('?format=events')).toMatchObject({ name: 'Olivia Owner — free times' });
    expect((await text('?format=events')).summaries[0]).toBe('Free');
    const de = await text('?format=events&lang=de');
    expect(de.name).toBe('Olivia Owner – freie Zeiten');
    expect(new Set(de.summaries)).toEqual(new Set(['Frei']));
    const fr = await text('?format=events', { 'Accept-Language': 'fr-CA,fr;q=0.8' });
    expect(fr.name).toBe('Olivia Owner — créneaux libres');
    expect(fr.summaries[0]).toBe('Libre');
    expect((await text('', { 'Accept-Language': 'pt-BR' })).name).toBe('Olivia Owner — horários livres');
  });
});
