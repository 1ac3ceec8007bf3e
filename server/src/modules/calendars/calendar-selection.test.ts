/**
 * Which calendars count as busy (issue 23): GET/PUT /api/me/calendar/connections/{id}/calendars
 * against a real Radicale (two collections, one switched off frees its hours), the Google fake
 * (calendarList access roles: holidays, birthdays and colleagues' calendars are not busy by
 * default, the primary always is) and the Graph fake (canEdit false = not busy by default). On
 * SQLite, and on PostgreSQL when TEST_POSTGRES_URL is set.
 */
import request from 'supertest';
import { createDAVClient } from 'tsdav';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start as startGoogleFake, type GoogleCalendarFake } from '../../../test/fakes/google-calendar-fake.ts';
import { start as startGraphFake, type MicrosoftGraphFake } from '../../../test/fakes/microsoft-graph-fake.ts';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { connectThroughConsent, listen, openAllWeek, publicWindows, utcDatePlus, waitFor } from '../../../test/oauth-kit.ts';
import { startRadicale, type RadicaleServer } from '../../../test/radicale.ts';
import { createTestApp, type TestApp, type TestAppOptions } from '../../../test/test-app.ts';
import { microsoftProvider } from '../../providers/microsoft/microsoft.provider.ts';
import { isSyncScheduled } from '../sync/sync-queue.ts';
import {
  calendarSwitches,
  countsAsBusy,
  excludedCalendarIds,
  mergeCalendarList,
  type CalendarChoices,
} from '../sync/calendar-selection.ts';

const NOW = Date.parse('2030-01-06T12:00:00Z'); // Sunday; Brussels is UTC+1 in January
const PASSWORD = 'radicale-pw-123';
const cal = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//avail-test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const event = (uid: string, start: string, end: string, title: string) =>
  cal('BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20300101T000000Z', `SUMMARY:${title}`, `DTSTART:${start}`, `DTEND:${end}`, 'END:VEVENT');

describe('calendar selection: the rules', () => {
  const none: CalendarChoices = { busy: {}, reviewed_at: null };
  it('keeps when each calendar was first seen; a later one is new until the owner saves the switches', () => {
    const first = mergeCalendarList([], [{ id: 'a', readOnly: false, busyByDefault: true }], 1_000);
    const second = mergeCalendarList(
      first,
      [
        { id: 'a', name: 'Work', readOnly: false, busyByDefault: true },
        { id: 'h', name: 'Holidays', readOnly: true, busyByDefault: false },
      ],
      5_000,
    );
    expect(second.map((c) => [c.id, c.firstSeenAt])).toEqual([['a', 1_000], ['h', 5_000]]);
    expect(mergeCalendarList(second, undefined, 9_000)).toEqual(second); // the provider said nothing: kept
    expect(calendarSwitches(second, none, 'Feed').map((c) => [c.name, c.busy, c.new])).toEqual([['Work', true, false], ['Holidays', false, true]]);
    expect(calendarSwitches(second, { busy: {}, reviewed_at: 6_000 }, 'Feed').every((c) => !c.new)).toBe(true);
    expect(calendarSwitches(first, none, 'Team feed')[0]!.name).toBe('Team feed');
  });

  it('follows the owner where they chose, the provider default elsewhere', () => {
    const list = mergeCalendarList(
      [],
      [
        { id: 'own', readOnly: false, busyByDefault: true },
        { id: 'holidays', readOnly: true, busyByDefault: false },
        { id: 'birthdays', readOnly: true, busyByDefault: false },
      ],
      1,
    );
    const choices: CalendarChoices = { busy: { own: false, holidays: true }, reviewed_at: 2 };
    expect(list.map((c) => countsAsBusy(c, choices))).toEqual([false, true, false]);
    expect(excludedCalendarIds(list, choices)).toEqual(['own', 'birthdays']);
    expect(excludedCalendarIds(list, none)).toEqual(['holidays', 'birthdays']);
  });
});

describe('calendar selection against Radicale', () => {
  let radicale: RadicaleServer;
  let t: TestApp;
  let owner: BuiltUser;
  let intruder: BuiltUser;
  let dav: Awaited<ReturnType<typeof createDAVClient>>;
  const slug = 'pickcalendars';

  beforeAll(async () => {
    radicale = await startRadicale({ users: { bob: PASSWORD } });
    t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' } });
    t.clock.set(NOW);
    owner = await buildUser(t, { timezone: 'Europe/Brussels', username: slug });
    intruder = await buildUser(t);
    await openAllWeek(t, owner.user.id);
    dav = await createDAVClient({ serverUrl: radicale.url, credentials: { username: 'bob', password: PASSWORD }, authMethod: 'Basic', defaultAccountType: 'caldav' });
    for (const [path, name] of [['work', 'Work'], ['family', 'Family']] as const) {
      await dav.makeCalendar({ url: `${radicale.url}bob/${path}/`, props: { displayname: name } });
    }
    await dav.createCalendarObject({ calendar: { url: `${radicale.url}bob/work/` }, filename: 'w.ics', iCalString: event('w@test', '20300107T090000Z', '20300107T100000Z', 'Secret work') });
    await dav.createCalendarObject({ calendar: { url: `${radicale.url}bob/family/` }, filename: 'f.ics', iCalString: event('f@test', '20300107T130000Z', '20300107T150000Z', 'Secret family') });
  });
  afterAll(async () => {
    await t?.close();
    await radicale?.stop();
  });

  it('lists both collections busy; switching one off frees its hours on the public page at once; a new collection shows as new', async () => {
    const connect = await request(t.app).post('/api/me/calendar/caldav/connect').set(owner.auth).send({ server_url: radicale.url, username: 'bob', password: PASSWORD });
    expect(connect.status).toBe(201);
    const id = connect.body.connection.id as string;
    expect(connect.body.connection).toMatchObject({ calendars_count: 2, included_calendars_count: 2 });

    const listed = await request(t.app).get(`/api/me/calendar/connections/${id}/calendars`).set(owner.auth).expect(200);
    expect(listed.headers['cache-control']).toBe('no-store');
    const byName = Object.fromEntries((listed.body.calendars as Array<{ name: string; id: string }>).map((c) => [c.name, c]));
    expect(Object.keys(byName).sort()).toEqual(['Family', 'Work']);
    expect(byName.Family).toMatchObject({ busy: true, read_only: false, new: false });
    expect(byName.Work).toMatchObject({ busy: true, read_only: false, new: false });
    expect(await publicWindows(t, slug, '2030-01-07')).toEqual([
      '2030-01-06T23:00:00Z/2030-01-07T09:00:00Z',
      '2030-01-07T10:00:00Z/2030-01-07T13:00:00Z',
      '2030-01-07T15:00:00Z/2030-01-07T22:59:00Z',
    ]);

    // another owner cannot read or switch them; a bad body or an unknown calendar changes nothing
    await request(t.app).get(`/api/me/calendar/connections/${id}/calendars`).set(intruder.auth).expect(404);
    await request(t.app).put(`/api/me/calendar/connections/${id}/calendars`).set(intruder.auth).send({ calendars: [{ id: byName.Family.id, busy: false }] }).expect(404);
    const bad = await request(t.app).put(`/api/me/calendar/connections/${id}/calendars`).set(owner.auth).send({ calendars: [{ id: byName.Family.id, busy: 'no' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ 'calendars.0.busy': 'busy must be true or false' });
    const unknown = await request(t.app)
      .put(`/api/me/calendar/connections/${id}/calendars`)
      .set(owner.auth)
      .send({ calendars: [{ id: byName.Family.id, busy: false }, { id: 'https://elsewhere.example/cal/', busy: false }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ 'calendars.1.id': 'This calendar is not part of the connection. Sync, then try again.' });
    expect(await publicWindows(t, slug, '2030-01-07')).toHaveLength(3);

    // Family off: its 13:00–15:00 is free at once; the owner still sees the event, as free
    const off = await request(t.app).put(`/api/me/calendar/connections/${id}/calendars`).set(owner.auth).send({ calendars: [{ id: byName.Family.id, busy: false }] });
    expect(off.status).toBe(200);
    expect(off.body.calendars.find((c: { name: string }) => c.name === 'Family')).toMatchObject({ busy: false });
    expect(off.body.connection).toMatchObject({ id, calendars_count: 2, included_calendars_count: 1 });
    expect(await publicWindows(t, slug, '2030-01-07')).toEqual([
      '2030-01-06T23:00:00Z/2030-01-07T09:00:00Z',
      '2030-01-07T10:00:00Z/2030-01-07T22:59:00Z',
    ]);
    const events = await request(t.app).get('/api/me/calendar/events').query({ start_date: '2030-01-07', end_date: '2030-01-07' }).set(owner.auth).expect(200);
    expect(events.body.events.map((e: { title: string }) => e.title).sort()).toEqual(['Secret family', 'Secret work']);
    // "Why is this time blocked?" names the calendar and says it does not count
    const family = events.body.events.find((e: { title: string }) => e.title === 'Secret family');
    const why = await request(t.app).get(`/api/me/calendar/events/${family.id}/source`).set(owner.auth).expect(200);
    expect(why.body).toMatchObject({ calendar: 'Family', calendar_busy: false, event: { is_busy: false } });
    const stored = await t.db.selectFrom('calendar_connections').select(['calendar_choices', 'sync_state_json']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(`${stored.calendar_choices}${stored.sync_state_json}`).not.toMatch(/Family|Work/); // the names are sealed (the provider state keeps collection URLs, as before)

    // a sync keeps the owner's choice
    await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    expect(await publicWindows(t, slug, '2030-01-07')).toHaveLength(2);

    // a collection that appears later follows the rule (CalDAV: busy) and is shown as new
    t.clock.set(NOW + 60_000);
    await dav.makeCalendar({ url: `${radicale.url}bob/side/`, props: { displayname: 'Side project' } });
    await dav.createCalendarObject({ calendar: { url: `${radicale.url}bob/side/` }, filename: 's.ics', iCalString: event('s@test', '20300107T170000Z', '20300107T180000Z', 'Secret side') });
    const sync = await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    expect(sync.body.success).toBe(true);
    const again = (await request(t.app).get(`/api/me/calendar/connections/${id}/calendars`).set(owner.auth).expect(200)).body.calendars as Array<{ name: string; busy: boolean; new: boolean }>;
    expect(again.map((c) => [c.name, c.busy, c.new]).sort()).toEqual([['Family', false, false], ['Side project', true, true], ['Work', true, false]]);
    expect(await publicWindows(t, slug, '2030-01-07')).toEqual([
      '2030-01-06T23:00:00Z/2030-01-07T09:00:00Z',
      '2030-01-07T10:00:00Z/2030-01-07T17:00:00Z',
      '2030-01-07T18:00:00Z/2030-01-07T22:59:00Z',
    ]);

    // Family back on: busy again at once
    await request(t.app).put(`/api/me/calendar/connections/${id}/calendars`).set(owner.auth).send({ calendars: [{ id: byName.Family.id, busy: true }] }).expect(200);
    expect(await publicWindows(t, slug, '2030-01-07')).toHaveLength(4);
  });
});

/**
 * An owner (UTC, open all week, slug `prefix…`) on a test app wired to a provider fake started by
 * `startFake`, with `seed` run on the fake first; the hooks of the enclosing describe start and
 * close everything. Read the fields inside the tests.
 */
function ownerWithFake<F extends { env: object; close(): Promise<void> }>(
  startFake: () => Promise<F>,
  appOptions: Omit<TestAppOptions, 'env'>,
  prefix: string,
  seed: (fake: F, day: string) => void,
) {
  const ctx = { day: utcDatePlus(3), slug: `${prefix}${Math.random().toString(36).slice(2, 7)}` } as { fake: F; t: TestApp; owner: BuiltUser; day: string; slug: string };
  let http: { close(): Promise<void> } | undefined;
  beforeAll(async () => {
    ctx.fake = await startFake();
    ctx.t = await createTestApp({ ...appOptions, env: { ...(ctx.fake.env as Record<string, string>) } });
    http = await listen(ctx.t);
    ctx.owner = await buildUser(ctx.t, { username: ctx.slug, timezone: 'UTC' });
    await openAllWeek(ctx.t, ctx.owner.user.id);
    seed(ctx.fake, ctx.day);
  });
  afterAll(async () => {
    await http?.close();
    await ctx.t?.close();
    await ctx.fake?.close();
  });
  return ctx;
}

describe('calendar selection: Google defaults from calendarList access roles', () => {
  const c = ownerWithFake(() => startGoogleFake({ autoApprove: true }), {}, 'gsel', (fake, day) => {
    fake.addCalendar({ id: 'en.be#holiday@group.v.calendar.google.com', summary: 'Holidays in Belgium', accessRole: 'reader', backgroundColor: '#16A765' });
    fake.addCalendar({ id: 'colleague@example.com', summary: 'Ana (work)', accessRole: 'freeBusyReader' });
    fake.addCalendar({ id: 'team@group.calendar.google.com', summary: 'Team', accessRole: 'writer' });
    const at = (h: number) => ({ dateTime: `${day}T${String(h).padStart(2, '0')}:00:00Z` });
    fake.putEvent(fake.account, { id: 'p1', summary: 'Own', start: at(8), end: at(9) });
    fake.putEvent('en.be#holiday@group.v.calendar.google.com', { id: 'h1', summary: 'Holiday', start: at(10), end: at(11) });
    fake.putEvent('colleague@example.com', { id: 'c1', summary: 'Ana busy', start: at(12), end: at(13) });
    fake.putEvent('team@group.calendar.google.com', { id: 't1', summary: 'Team sync', start: at(14), end: at(15) });
  });

  it("counts the primary and writable calendars; holidays and colleagues' calendars only once switched on", async () => {
    const { t, fake, owner, day, slug } = c;
    const { callback } = await connectThroughConsent(t, owner.auth, 'google');
    expect(callback.status).toBe(200);
    const conn = (await request(t.app).get('/api/me/calendar/connections').set(owner.auth)).body.connections[0];
    expect(conn).toMatchObject({ provider: 'google', calendars_count: 4, included_calendars_count: 2 });
    const list = (await request(t.app).get(`/api/me/calendar/connections/${conn.id}/calendars`).set(owner.auth).expect(200)).body.calendars;
    expect(list).toEqual([
      { id: fake.account, name: fake.account, busy: true, read_only: false, new: false },
      { id: 'en.be#holiday@group.v.calendar.google.com', name: 'Holidays in Belgium', color: '#16a765', busy: false, read_only: true, new: false },
      { id: 'colleague@example.com', name: 'Ana (work)', busy: false, read_only: true, new: false },
      { id: 'team@group.calendar.google.com', name: 'Team', busy: true, read_only: false, new: false },
    ]);
    expect(await publicWindows(t, slug, day)).toEqual([
      `${day}T00:00:00Z/${day}T08:00:00Z`,
      `${day}T09:00:00Z/${day}T14:00:00Z`,
      `${day}T15:00:00Z/${day}T23:59:00Z`,
    ]);
    await request(t.app)
      .put(`/api/me/calendar/connections/${conn.id}/calendars`)
      .set(owner.auth)
      .send({ calendars: [{ id: 'en.be#holiday@group.v.calendar.google.com', busy: true }, { id: fake.account, busy: false }] })
      .expect(200);
    expect(await publicWindows(t, slug, day)).toEqual([
      `${day}T00:00:00Z/${day}T10:00:00Z`,
      `${day}T11:00:00Z/${day}T14:00:00Z`,
      `${day}T15:00:00Z/${day}T23:59:00Z`,
    ]);
  });
});

describe('calendar selection: a Google connection synced before calendar lists were recorded', () => {
  const c = ownerWithFake(() => startGoogleFake({ autoApprove: true }), {}, 'gupg', (fake, day) => {
    fake.addCalendar({ id: 'holidays@group.v.calendar.google.com', summary: 'Holidays', accessRole: 'reader' });
    fake.putEvent('holidays@group.v.calendar.google.com', { id: 'h1', summary: 'Holiday', start: { dateTime: `${day}T10:00:00Z` }, end: { dateTime: `${day}T11:00:00Z` } });
  });

  it('keeps every calendar it had busy (an upgrade never frees time by itself); one appearing later gets the default', async () => {
    const { t, fake, owner, day, slug } = c;
    await connectThroughConsent(t, owner.auth, 'google');
    const { id } = await t.db.selectFrom('calendar_connections').select('id').where('user_id', '=', owner.user.id).executeTakeFirstOrThrow();
    // No sync of it pending or running (a push channel's first message schedules one), so the state written below is what the next sync reads.
    await waitFor(async () => {
      const row = await t.db.selectFrom('calendar_connections').select('sync_lease_until').where('id', '=', id).executeTakeFirstOrThrow();
      return !isSyncScheduled(t.db, id) && row.sync_lease_until == null;
    }, 10_000);
    const conn = await t.db.selectFrom('calendar_connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    // As an earlier version left it: no calendar list in the state, derived with every calendar busy a day ago.
    const { calendarsSealed: _list, ...older } = JSON.parse(conn.sync_state_json!);
    await t.db.updateTable('calendar_connections').set({ sync_state_json: JSON.stringify({ ...older, derivedAt: 0 }) }).where('id', '=', conn.id).execute();

    await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    const list = (await request(t.app).get(`/api/me/calendar/connections/${conn.id}/calendars`).set(owner.auth).expect(200)).body.calendars;
    expect(list.map((c: { name: string; busy: boolean }) => [c.name, c.busy])).toEqual([[fake.account, true], ['Holidays', true]]);
    expect(await publicWindows(t, slug, day)).toEqual([`${day}T00:00:00Z/${day}T10:00:00Z`, `${day}T11:00:00Z/${day}T23:59:00Z`]);

    fake.addCalendar({ id: 'birthdays@group.v.calendar.google.com', summary: 'Birthdays', accessRole: 'reader' });
    await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    const later = (await request(t.app).get(`/api/me/calendar/connections/${conn.id}/calendars`).set(owner.auth).expect(200)).body.calendars;
    expect(later.find((c: { name: string }) => c.name === 'Birthdays')).toMatchObject({ busy: false, new: true });
  });
});

describe('calendar selection: Microsoft defaults from canEdit', () => {
  const c = ownerWithFake(() => startGraphFake({ autoApprove: true }), { oauthProviders: { microsoft: microsoftProvider } }, 'msel', (fake, day) => {
    const own = fake.addCalendar('Calendar');
    const shared = fake.addCalendar("Ben's calendar", undefined, { canEdit: false, hexColor: '#E07A5F' });
    fake.putEvent(own, { subject: 'Own', start: `${day}T08:00:00Z`, end: `${day}T09:00:00Z` });
    fake.putEvent(shared, { subject: 'Ben busy', start: `${day}T10:00:00Z`, end: `${day}T11:00:00Z` });
  });

  it('counts the calendars the owner can edit; a shared read-only one only once switched on', async () => {
    const { t, fake, owner, day, slug } = c;
    const { callback } = await connectThroughConsent(t, owner.auth, 'microsoft');
    expect(callback.status).toBe(200);
    const conn = (await request(t.app).get('/api/me/calendar/connections').set(owner.auth)).body.connections[0];
    expect(conn).toMatchObject({ provider: 'microsoft', calendars_count: 2, included_calendars_count: 1 });
    const list = (await request(t.app).get(`/api/me/calendar/connections/${conn.id}/calendars`).set(owner.auth).expect(200)).body.calendars;
    expect(list.map((c: { name: string; busy: boolean; read_only: boolean; color?: string }) => [c.name, c.busy, c.read_only, c.color ?? null])).toEqual([
      ['Calendar', true, false, null],
      ["Ben's calendar", false, true, '#e07a5f'],
    ]);
    expect(await publicWindows(t, slug, day)).toEqual([`${day}T00:00:00Z/${day}T08:00:00Z`, `${day}T09:00:00Z/${day}T23:59:00Z`]);
    const shared = list[1].id as string;
    await request(t.app).put(`/api/me/calendar/connections/${conn.id}/calendars`).set(owner.auth).send({ calendars: [{ id: shared, busy: true }] }).expect(200);
    expect(await publicWindows(t, slug, day)).toEqual([
      `${day}T00:00:00Z/${day}T08:00:00Z`,
      `${day}T09:00:00Z/${day}T10:00:00Z`,
      `${day}T11:00:00Z/${day}T23:59:00Z`,
    ]);
  });
});
