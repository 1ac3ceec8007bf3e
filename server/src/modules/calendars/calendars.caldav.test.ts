import { pino } from 'pino';
import request from 'supertest';
import { createDAVClient } from 'tsdav';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { startRadicale, type RadicaleServer } from '../../../test/radicale.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { createSafeFetch } from '../../lib/safe-fetch.ts';
import { syncConnection } from '../sync/sync.service.ts';

const NOW = Date.parse('2030-01-06T12:00:00Z'); // Sunday; Brussels is UTC+1 in January
const PASSWORD = 'radicale-pw-123';

const VTZ = [
  'BEGIN:VTIMEZONE', 'TZID:Europe/Brussels',
  'BEGIN:STANDARD', 'DTSTART:19701025T030000', 'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100', 'TZNAME:CET', 'END:STANDARD',
  'BEGIN:DAYLIGHT', 'DTSTART:19700329T020000', 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'TZNAME:CEST', 'END:DAYLIGHT',
  'END:VTIMEZONE',
];
const cal = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//avail-test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');

/** Weekly Monday 10:00–11:00 Brussels, 4 times; the 2nd is excluded, the 3rd moved to 14:00–15:00. */
const WEEKLY = cal(
  ...VTZ,
  'BEGIN:VEVENT', 'UID:weekly@test', 'DTSTAMP:20300101T000000Z', 'SUMMARY:Secret weekly sync',
  'DTSTART;TZID=Europe/Brussels:20300107T100000', 'DTEND;TZID=Europe/Brussels:20300107T110000',
  'RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE;TZID=Europe/Brussels:20300114T100000', 'END:VEVENT',
  'BEGIN:VEVENT', 'UID:weekly@test', 'DTSTAMP:20300101T000000Z', 'SUMMARY:Secret weekly sync (moved)',
  'RECURRENCE-ID;TZID=Europe/Brussels:20300121T100000',
  'DTSTART;TZID=Europe/Brussels:20300121T140000', 'DTEND;TZID=Europe/Brussels:20300121T150000', 'END:VEVENT',
);
const ALL_DAY = (date: string) =>
  cal('BEGIN:VEVENT', 'UID:allday@test', 'DTSTAMP:20300101T000000Z', 'SUMMARY:Secret day off', `DTSTART;VALUE=DATE:${date}`, 'END:VEVENT');
const TRANSPARENT = cal(
  ...VTZ,
  'BEGIN:VEVENT', 'UID:free@test', 'DTSTAMP:20300101T000000Z', 'SUMMARY:Secret reminder', 'TRANSP:TRANSPARENT',
  'DTSTART;TZID=Europe/Brussels:20300108T100000', 'DTEND;TZID=Europe/Brussels:20300108T110000', 'END:VEVENT',
);
const DECLINED = (ownerEmail: string) =>
  cal(
    'BEGIN:VEVENT', 'UID:declined@test', 'DTSTAMP:20300101T000000Z', 'SUMMARY:Secret pitch',
    'DTSTART:20300110T120000Z', 'DTEND:20300110T130000Z',
    'ORGANIZER:mailto:boss@example.org',
    `ATTENDEE;PARTSTAT=DECLINED:mailto:${ownerEmail.toUpperCase()}`,
    'ATTENDEE;PARTSTAT=ACCEPTED:mailto:someone@example.org', 'END:VEVENT',
  );

const fullDay = (d: string) => ({ start: `${d}T08:00:00Z`, end: `${d}T16:00:00Z` });

describe('CalDAV connection against a real Radicale (API)', () => {
  let radicale: RadicaleServer;
  let t: TestApp;
  let owner: BuiltUser;
  let dav: Awaited<ReturnType<typeof createDAVClient>>;
  const slug = 'radicaleowner';

  beforeAll(async () => {
    radicale = await startRadicale({ users: { alice: PASSWORD } });
    t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true', APPLE_CALDAV_URL: radicale.url } });
    t.clock.set(NOW);
    owner = await buildUser(t, { timezone: 'Europe/Brussels', username: slug, email: 'owner@example.net' });
    for (let weekday = 0; weekday < 5; weekday++) {
      await t.db
        .insertInto('availability_rules')
        .values({ id: crypto.randomUUID(), user_id: owner.user.id, weekday, start_time_local: '09:00', end_time_local: '17:00', created_at: NOW, updated_at: NOW })
        .execute();
    }
    dav = await createDAVClient({ serverUrl: radicale.url, credentials: { username: 'alice', password: PASSWORD }, authMethod: 'Basic', defaultAccountType: 'caldav' });
    const calendarUrl = `${radicale.url}alice/work/`;
    await dav.makeCalendar({ url: calendarUrl, props: { displayname: 'Work' } });
    const calendar = { url: calendarUrl };
    await dav.createCalendarObject({ calendar, filename: 'weekly.ics', iCalString: WEEKLY });
    await dav.createCalendarObject({ calendar, filename: 'allday.ics', iCalString: ALL_DAY('20300109') });
    await dav.createCalendarObject({ calendar, filename: 'free.ics', iCalString: TRANSPARENT });
    await dav.createCalendarObject({ calendar, filename: 'declined.ics', iCalString: DECLINED('owner@example.net') });
  });
  afterAll(async () => {
    await t?.close();
    await radicale?.stop();
  });

  async function windows() {
    const res = await request(t.app).get(`/api/public/${slug}/availability`).query({ range: '2030-01-07..2030-01-25' });
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/Secret|weekly|pitch|reminder|day off|radicale|alice|owner@/i);
    return res.body.availability.windows as Array<{ start: string; end: string }>;
  }

  it('connects, syncs, and the public windows follow RRULE, EXDATE, the moved instance, all-day, TRANSP and a declined invitation', async () => {
    const started = performance.now();
    const res = await request(t.app)
      .post('/api/me/calendar/caldav/connect')
      .set(owner.auth)
      .send({ server_url: radicale.url, username: 'alice', password: PASSWORD });
    const connectMs = performance.now() - started;
    expect(res.status).toBe(201);
    expect(res.body.connection).toMatchObject({ provider: 'caldav', status: 'active', calendars_count: 1, included_calendars_count: 1, account: 'alice', last_error: null });
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
    const stored = await t.db.selectFrom('calendar_connections').select(['secret_enc', 'config_json', 'sync_state_json']).where('user_id', '=', owner.user.id).executeTakeFirstOrThrow();
    expect(stored.secret_enc).toMatch(/^v1\./);
    expect(`${stored.secret_enc}${stored.config_json}${stored.sync_state_json}`).not.toContain(PASSWORD);

    expect(await windows()).toEqual([
      { start: '2030-01-07T08:00:00Z', end: '2030-01-07T09:00:00Z' },
      { start: '2030-01-07T10:00:00Z', end: '2030-01-07T16:00:00Z' },
      fullDay('2030-01-08'), // transparent event does not block
      // 2030-01-09: all-day event
      fullDay('2030-01-10'), // invitation declined by the owner
      fullDay('2030-01-11'),
      fullDay('2030-01-14'), // EXDATE
      fullDay('2030-01-15'), fullDay('2030-01-16'), fullDay('2030-01-17'), fullDay('2030-01-18'),
      { start: '2030-01-21T08:00:00Z', end: '2030-01-21T13:00:00Z' }, // moved instance 14:00–15:00 Brussels
      { start: '2030-01-21T14:00:00Z', end: '2030-01-21T16:00:00Z' },
      fullDay('2030-01-22'), fullDay('2030-01-23'), fullDay('2030-01-24'), fullDay('2030-01-25'),
    ]);

    // the owner sees titles on the dashboard
    const events = await request(t.app).get('/api/me/calendar/events').query({ start_date: '2030-01-07', end_date: '2030-01-13' }).set(owner.auth);
    expect(events.body.events.map((e: { title: string }) => e.title)).toEqual(
      expect.arrayContaining(['Secret weekly sync', 'Secret day off', 'Secret reminder', 'Secret pitch']),
    );
    expect(events.body.events.every((e: { provider: string }) => e.provider === 'caldav')).toBe(true);

    // an unchanged calendar costs exactly one request (the calendar-home PROPFIND with ctag + sync token)
    const requests: string[] = [];
    const counting = createSafeFetch({ allowPrivate: true, onRequest: ({ method, url }) => requests.push(`${method} ${new URL(url).pathname}`) });
    const resyncStarted = performance.now();
    const outcome = await syncConnection({ ...t.deps, calendarFetch: counting }, res.body.connection.id);
    const resyncMs = performance.now() - resyncStarted;
    expect(outcome).toMatchObject({ ok: true, notModified: true });
    expect(requests).toEqual(['PROPFIND /alice/']);
    console.info(`[measure] Radicale connect+first sync (4 objects): ${connectMs.toFixed(0)} ms; unchanged re-sync: ${resyncMs.toFixed(0)} ms, ${requests.length} request(s)`);

    // change an event in Radicale, press Sync Now: the window moves
    await dav.updateCalendarObject({ calendarObject: { url: `${radicale.url}alice/work/allday.ics`, data: ALL_DAY('20300110') } });
    const sync = await request(t.app).post('/api/me/calendar/sync').set(owner.auth);
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({ success: true, message: 'Sync complete' });
    expect(sync.body.connections[0]).toMatchObject({ status: 'active', last_error: null });
    const after = await windows();
    expect(after).toContainEqual(fullDay('2030-01-09'));
    expect(after.some((w) => w.start.startsWith('2030-01-10'))).toBe(false);

    // deleting the object in Radicale frees the day at the next sync
    await dav.deleteCalendarObject({ calendarObject: { url: `${radicale.url}alice/work/allday.ics` } });
    await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    expect(await windows()).toContainEqual(fullDay('2030-01-10'));

    // log lines of a sync with changes carry ids and counts, never titles, URLs or the password
    await dav.updateCalendarObject({ calendarObject: { url: `${radicale.url}alice/work/free.ics`, data: TRANSPARENT.replace('Secret reminder', 'Secret renamed') } });
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, { write: (line: string) => lines.push(line) });
    const logged = await syncConnection({ ...t.deps, logger }, res.body.connection.id);
    expect(logged).toMatchObject({ ok: true, notModified: false });
    expect(lines.join('')).toContain('calendar synced');
    expect(lines.join('')).not.toMatch(/Secret|alice|radicale-pw|127\.0\.0\.1/);
  });

  it("names the calendar by its own display name in \"why is this time blocked?\", stored sealed", async () => {
    const events = await request(t.app).get('/api/me/calendar/events').query({ start_date: '2030-01-07', end_date: '2030-01-13' }).set(owner.auth);
    const weekly = events.body.events.find((e: { title: string }) => e.title === 'Secret weekly sync');
    const source = await request(t.app).get(`/api/me/calendar/events/${weekly.id}/source`).set(owner.auth);
    expect(source.status).toBe(200);
    expect(source.body.calendar).toBe('Work'); // Radicale's displayname, not the path segment "work"
    const stored = await t.db.selectFrom('calendar_connections').select('sync_state_json').where('user_id', '=', owner.user.id).executeTakeFirstOrThrow();
    expect(stored.sync_state_json).not.toContain('"Work"');
  });

  it('refuses a wrong password with 400 and stores nothing', async () => {
    const other = await buildUser(t);
    const res = await request(t.app)
      .post('/api/me/calendar/caldav/connect')
      .set(other.auth)
      .send({ server_url: radicale.url, username: 'alice', password: 'wrong-password' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid credentials. Please check your CalDAV username and password.');
    for (const table of ['calendar_connections', 'calendar_sources', 'calendar_events', 'busy_intervals'] as const) {
      const n = await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', other.user.id).executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(0);
    }
    const invalid = await request(t.app).post('/api/me/calendar/caldav/connect').set(other.auth).send({ server_url: radicale.url, username: 'alice' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.password).toBe('Password is required');
  });

  it('marks the connection expired when the password stops working, keeping its busy time', async () => {
    const other = await buildUser(t, { timezone: 'Europe/Brussels' });
    const res = await request(t.app).post('/api/me/calendar/caldav/connect').set(other.auth).send({ server_url: radicale.url, username: 'alice', password: PASSWORD }).expect(201);
    const count = async () =>
      Number((await t.db.selectFrom('busy_intervals').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', other.user.id).executeTakeFirstOrThrow()).n);
    const before = await count();
    expect(before).toBeGreaterThan(0);
    const { encryptSecret } = await import('../../lib/crypto.ts');
    await t.db.updateTable('calendar_connections').set({ secret_enc: encryptSecret('revoked', t.config.AVAIL_SECRET_KEY), sync_state_json: null }).where('id', '=', res.body.connection.id).execute();
    const sync = await request(t.app).post('/api/me/calendar/sync').set(other.auth).expect(200);
    expect(sync.body.connections[0]).toMatchObject({ status: 'expired', last_error: 'Invalid credentials. Please check your CalDAV username and password.' });
    expect(await count()).toBe(before);
  });

  it('connects Apple (CalDAV at APPLE_CALDAV_URL with the Apple ID) and disconnects it', async () => {
    const user = await buildUser(t);
    const bad = await request(t.app).post('/api/me/calendar/apple/connect').set(user.auth).send({ apple_id: 'alice', app_specific_password: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid credentials. Please check your Apple ID and app-specific password.');
    const empty = await request(t.app).post('/api/me/calendar/apple/connect').set(user.auth).send({ apple_id: '', app_specific_password: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.error).toBe('Please enter both Apple ID and app-specific password.');

    const ok = await request(t.app).post('/api/me/calendar/apple/connect').set(user.auth).send({ apple_id: 'alice', app_specific_password: PASSWORD });
    expect(ok.status).toBe(201);
    expect(ok.body.connection).toMatchObject({ provider: 'apple', name: 'iCloud', status: 'active', calendars_count: 1 });
    // reconnecting replaces the Apple connection instead of adding a second one
    await request(t.app).post('/api/me/calendar/apple/connect').set(user.auth).send({ apple_id: 'alice', app_specific_password: PASSWORD }).expect(201);
    const list = await request(t.app).get('/api/me/calendar/connections').set(user.auth);
    expect(list.body.connections.filter((c: { provider: string }) => c.provider === 'apple')).toHaveLength(1);

    await request(t.app).delete('/api/me/calendar/apple/disconnect').set(user.auth).expect(200);
    const busy = await t.db.selectFrom('busy_intervals').select('id').where('user_id', '=', user.user.id).execute();
    expect(busy).toEqual([]);
    expect((await request(t.app).get('/api/me/calendar/connections').set(user.auth)).body.connections).toEqual([]);
  });
});
