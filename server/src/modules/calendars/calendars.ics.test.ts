import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { startIcsServer, type IcsServer } from '../../../test/ics-server.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { randomBytes } from 'node:crypto';
import { decryptSecret, openContent } from '../../lib/crypto.ts';
import { createSafeFetch } from '../../lib/safe-fetch.ts';
import { rederiveZoneDependentBusy } from '../sync/rederive.service.ts';
import { syncConnection } from '../sync/sync.service.ts';
import { feedUrlHmac, sealLegacyIcsFeeds } from './calendar-connect.service.ts';

const NOW = Date.parse('2030-01-06T12:00:00Z'); // a Sunday

function feed(events: string[], name = 'Team feed'): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//avail-test//EN', `X-WR-CALNAME:${name}`, ...events, 'END:VCALENDAR', ''].join('\r\n');
}
function timed(uid: string, start: string, end: string, title = 'Confidential board meeting', extra: string[] = []): string {
  return ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20300101T000000Z', `DTSTART:${start}`, `DTEND:${end}`, `SUMMARY:${title}`, ...extra, 'END:VEVENT'].join('\r\n');
}
function allDay(uid: string, date: string, title = 'Private holiday'): string {
  return ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20300101T000000Z', `DTSTART;VALUE=DATE:${date}`, `SUMMARY:${title}`, 'END:VEVENT'].join('\r\n');
}

async function busyOf(t: TestApp, userId: string) {
  const rows = await t.db.selectFrom('busy_intervals').select(['start_ms', 'end_ms', 'depends_on_owner_zone']).where('user_id', '=', userId).orderBy('start_ms').execute();
  return rows.map((r) => ({ start: new Date(Number(r.start_ms)).toISOString(), end: new Date(Number(r.end_ms)).toISOString(), zoned: r.depends_on_owner_zone === 1 }));
}
/** Every column of the user's calendar_connections and calendar_sources rows, as one string. */
async function rawCalendarRows(t: TestApp, userId: string): Promise<string> {
  const conns = await t.db.selectFrom('calendar_connections').selectAll().where('user_id', '=', userId).execute();
  const sources = await t.db.selectFrom('calendar_sources').selectAll().where('user_id', '=', userId).execute();
  expect(conns.length).toBeGreaterThan(0);
  expect(sources.length).toBeGreaterThan(0);
  return JSON.stringify([conns, sources]);
}
async function countRows(t: TestApp, table: 'calendar_connections' | 'calendar_sources' | 'calendar_events' | 'busy_intervals', userId: string) {
  const r = await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(r.n);
}

describe('ICS feed connections (API)', () => {
  let t: TestApp;
  let srv: IcsServer;
  let owner: BuiltUser;

  beforeAll(async () => {
    srv = await startIcsServer();
    t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' } });
    t.clock.set(NOW);
  });
  afterAll(async () => {
    await t?.close();
    await srv?.close();
  });
  beforeEach(async () => {
    owner = await buildUser(t, { timezone: 'Europe/Brussels', username: `ics${Math.random().toString(36).slice(2, 8)}` });
  });

  it('connects, lists without secrets, serves owner events, answers 304 on Sync Now, and disconnects', async () => {
    const path = `/private-${owner.user.id}/basic.ics`;
    srv.set(path, { ics: feed([timed('e1@test', '20300107T090000Z', '20300107T100000Z')]) });
    const connect = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(path) });
    expect(connect.status).toBe(201);
    const c = connect.body.connection;
    expect(c).toMatchObject({
      provider: 'ics', name: 'Team feed', status: 'active', calendars_count: 1, included_calendars_count: 1,
      connected_at: new Date(NOW).toISOString(), last_synced_at: new Date(NOW).toISOString(), last_error: null, warnings: [],
    });
    expect(await busyOf(t, owner.user.id)).toEqual([{ start: '2030-01-07T09:00:00.000Z', end: '2030-01-07T10:00:00.000Z', zoned: false }]);

    const list = await request(t.app).get('/api/me/calendar/connections').set(owner.auth);
    expect(list.status).toBe(200);
    expect(list.body.connections).toHaveLength(1);
    expect(list.body.connections[0].id).toBe(c.id);
    expect(JSON.stringify(list.body)).not.toContain('private-'); // the feed URL may carry a secret token
    expect(Object.keys(list.body.connections[0]).sort()).toEqual(
      ['account', 'busy_rules', 'calendars_count', 'connected_at', 'id', 'included_calendars_count', 'last_error', 'last_synced_at', 'name', 'provider', 'status', 'warnings'],
    );

    const events = await request(t.app).get('/api/me/calendar/events').query({ start_date: '2030-01-07', end_date: '2030-01-07' }).set(owner.auth);
    expect(events.status).toBe(200);
    expect(events.body.events).toEqual([
      expect.objectContaining({ title: 'Confidential board meeting', start: '2030-01-07T09:00:00.000Z', end: '2030-01-07T10:00:00.000Z', all_day: false, provider: 'ics', connection_id: c.id }),
    ]);

    // Sync Now with an unchanged feed: conditional GET, 304, still a successful sync
    t.clock.set(NOW + 60_000);
    const before = srv.requests.length;
    const sync = await request(t.app).post('/api/me/calendar/sync').set(owner.auth);
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({ success: true, message: 'Sync complete' });
    expect(sync.body.connections[0]).toMatchObject({ status: 'active', last_synced_at: new Date(NOW + 60_000).toISOString() });
    expect(srv.requests.length).toBe(before + 1);
    expect(srv.requests.at(-1)!.headers['if-none-match']).toBeTruthy();
    expect(await busyOf(t, owner.user.id)).toHaveLength(1);

    // the feed changes: Sync Now picks it up
    srv.set(path, { ics: feed([timed('e1@test', '20300107T130000Z', '20300107T140000Z'), timed('e2@test', '20300108T090000Z', '20300108T091500Z')]) });
    await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    expect(await busyOf(t, owner.user.id)).toEqual([
      { start: '2030-01-07T13:00:00.000Z', end: '2030-01-07T14:00:00.000Z', zoned: false },
      { start: '2030-01-08T09:00:00.000Z', end: '2030-01-08T09:15:00.000Z', zoned: false },
    ]);

    // another user cannot delete it
    const intruder = await buildUser(t);
    await request(t.app).delete(`/api/me/calendar/connections/${c.id}`).set(intruder.auth).expect(404);

    const del = await request(t.app).delete(`/api/me/calendar/connections/${c.id}`).set(owner.auth);
    expect(del.status).toBe(200);
    for (const table of ['calendar_connections', 'calendar_sources', 'calendar_events', 'busy_intervals'] as const) {
      expect(await countRows(t, table, owner.user.id)).toBe(0);
    }
    const afterDelete = await request(t.app).get('/api/me/calendar/events').query({ start_date: '2030-01-07', end_date: '2030-01-08' }).set(owner.auth);
    expect(afterDelete.body.events).toEqual([]);
    await request(t.app).delete(`/api/me/calendar/connections/${c.id}`).set(owner.auth).expect(404);
  });

  it('stores a secret feed URL only encrypted: no column of connections or sources holds it, yet sync, 304, 409 and disconnect work', async () => {
    const token = randomBytes(12).toString('hex');
    const key = randomBytes(8).toString('hex');
    const path = `/feeds/${token}/basic.ics`;
    const url = `${srv.url(path)}?key=${key}`;
    srv.set(path, { ics: feed([timed('s1@test', '20300107T090000Z', '20300107T100000Z')]) });
    const connect = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url });
    expect(connect.status).toBe(201);
    const id = connect.body.connection.id as string;
    expect(connect.body.connection.account).toBe(`127.0.0.1:${srv.port}`);
    const assertNoFeedUrl = async () => {
      const raw = await rawCalendarRows(t, owner.user.id);
      for (const secret of [url, srv.url(path), path, token, key, '/feeds/']) expect(raw).not.toContain(secret);
    };
    await assertNoFeedUrl();
    const conn = await t.db.selectFrom('calendar_connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(conn.account).not.toContain(`127.0.0.1:${srv.port}`); // sealed at rest (issue 26)
    expect(openContent(conn.account!, t.config.AVAIL_SECRET_KEY)).toBe(`127.0.0.1:${srv.port}`);
    expect(JSON.parse(conn.config_json)).toEqual({ sourceId: `ics:${id}`, url_hmac: feedUrlHmac(url, t.config.AVAIL_SECRET_KEY) });
    expect(JSON.parse(conn.config_json).url_hmac).toMatch(/^[0-9a-f]{64}$/);
    expect(decryptSecret(conn.secret_enc!, t.config.AVAIL_SECRET_KEY)).toBe(url);
    const sources = await t.db.selectFrom('calendar_sources').select(['calendar_url', 'object_href']).where('connection_id', '=', id).execute();
    // The paths are sealed at rest (issue 26, 0017_sealed_text); opened they are the feed's non-secret source id.
    expect(sources.map((r) => ({ calendar_url: openContent(r.calendar_url, t.config.AVAIL_SECRET_KEY), object_href: openContent(r.object_href, t.config.AVAIL_SECRET_KEY) }))).toEqual([
      { calendar_url: `ics:${id}`, object_href: `ics:${id}` },
    ]);
    expect(srv.requests.at(-1)!.path).toBe(path); // the real URL is what gets fetched

    // Sync Now, feed unchanged: conditional GET answered 304, still a successful sync
    const before = srv.requests.length;
    const sync = await request(t.app).post('/api/me/calendar/sync').set(owner.auth);
    expect(sync.status).toBe(200);
    expect(sync.body.connections[0]).toMatchObject({ id, status: 'active', last_error: null });
    expect(srv.requests.length).toBe(before + 1);
    expect(srv.requests.at(-1)).toMatchObject({ path });
    expect(srv.requests.at(-1)!.headers['if-none-match']).toBeTruthy();
    await assertNoFeedUrl();

    // the feed changes: picked up, still nothing in clear
    srv.set(path, { ics: feed([timed('s1@test', '20300107T130000Z', '20300107T140000Z')]) });
    await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    expect(await busyOf(t, owner.user.id)).toEqual([{ start: '2030-01-07T13:00:00.000Z', end: '2030-01-07T14:00:00.000Z', zoned: false }]);
    expect(await countRows(t, 'calendar_sources', owner.user.id)).toBe(1);
    await assertNoFeedUrl();

    // the same feed again, also written differently (scheme case, dot segment, fragment): 409
    for (const again of [url, `HTTP://127.0.0.1:${srv.port}/feeds/${token}/./basic.ics?key=${key}#week`]) {
      const dup = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: again });
      expect(dup.status).toBe(409);
      expect(dup.body.error).toBe('This calendar is already connected.');
    }
    // another user may connect the same feed
    const other = await buildUser(t);
    await request(t.app).post('/api/me/calendar/ics/connect').set(other.auth).send({ url }).expect(201);

    await request(t.app).delete(`/api/me/calendar/connections/${id}`).set(owner.auth).expect(200);
    for (const table of ['calendar_connections', 'calendar_sources', 'calendar_events', 'busy_intervals'] as const) {
      expect(await countRows(t, table, owner.user.id)).toBe(0);
    }
    // once disconnected it can be connected again
    await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url }).expect(201);
  });

  it('seals ICS connections stored with the URL in clear by earlier versions, keeping conditional sync', async () => {
    const token = randomBytes(12).toString('hex');
    const path = `/legacy/${token}.ics`;
    const url = srv.url(path);
    srv.set(path, { ics: feed([timed('l1@test', '20300107T090000Z', '20300107T100000Z')]) });
    const { body } = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url }).expect(201);
    const id = body.connection.id as string;
    // rewrite the rows the way earlier versions stored them
    await t.db.updateTable('calendar_connections').set({ config_json: JSON.stringify({ url }), secret_enc: null }).where('id', '=', id).execute();
    await t.db.updateTable('calendar_sources').set({ calendar_url: url, object_href: url }).where('connection_id', '=', id).execute();
    expect(await rawCalendarRows(t, owner.user.id)).toContain(token);

    expect(await sealLegacyIcsFeeds(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await sealLegacyIcsFeeds(t.deps)).toBe(0);
    expect(await rawCalendarRows(t, owner.user.id)).not.toContain(token);
    const conn = await t.db.selectFrom('calendar_connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(decryptSecret(conn.secret_enc!, t.config.AVAIL_SECRET_KEY)).toBe(url);

    const before = srv.requests.length;
    expect(await syncConnection(t.deps, id)).toMatchObject({ ok: true, notModified: true });
    expect(srv.requests.length).toBe(before + 1);
    expect(srv.requests.at(-1)!.headers['if-none-match']).toBeTruthy();
    expect(await busyOf(t, owner.user.id)).toEqual([{ start: '2030-01-07T09:00:00.000Z', end: '2030-01-07T10:00:00.000Z', zoned: false }]);
    expect((await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url })).status).toBe(409);
  });

  it('reads events-call dates in the owner zone', async () => {
    const path = `/zone-${owner.user.id}.ics`;
    srv.set(path, { ics: feed([timed('late@test', '20300109T233000Z', '20300110T000000Z', 'Late call')]) }); // 00:30 Jan 10 in Brussels
    await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(path) }).expect(201);
    const jan9 = await request(t.app).get('/api/me/calendar/events').query({ start_date: '2030-01-09', end_date: '2030-01-09' }).set(owner.auth);
    const jan10 = await request(t.app).get('/api/me/calendar/events').query({ start_date: '2030-01-10', end_date: '2030-01-10' }).set(owner.auth);
    expect(jan9.body.events).toEqual([]);
    expect(jan10.body.events.map((e: { title: string }) => e.title)).toEqual(['Late call']);
    await request(t.app).get('/api/me/calendar/events').query({ start_date: 'tomorrow', end_date: '2030-01-10' }).set(owner.auth).expect(400);
    await request(t.app).get('/api/me/calendar/events').query({ start_date: '2030-01-10' }).set(owner.auth).expect(422);
    // connecting the same feed twice is a 409
    const dup = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(path) });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('This calendar is already connected.');
  });

  it('validates input (422) and refuses unreachable or non-calendar feeds (400) without storing anything', async () => {
    const missing = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({});
    expect(missing.status).toBe(422);
    expect(missing.body.errors.url).toBe('Calendar URL is required');
    await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: 'ftp://example.com/x.ics' }).expect(422);

    const notFound = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url('/nope.ics') });
    expect(notFound.status).toBe(400);
    expect(notFound.body.error).toBe('Calendar feed not found (HTTP 404). Check the link.');

    srv.set('/html', { ics: '<html>hello</html>' });
    const html = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url('/html') });
    expect(html.status).toBe(400);
    expect(html.body.error).toMatch(/does not return an iCalendar feed/);

    srv.set('/huge.ics', { hugeBytes: 11 * 1024 * 1024 });
    const huge = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url('/huge.ics') });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toBe('Calendar feed is larger than 10 MB');

    expect(await countRows(t, 'calendar_connections', owner.user.id)).toBe(0);
    expect(await countRows(t, 'calendar_sources', owner.user.id)).toBe(0);
    // the server is still healthy
    await request(t.app).get('/api/me/calendar/connections').set(owner.auth).expect(200);
  });

  it('Sync Now succeeds only when every calendar synced, and names the one that failed and why', async () => {
    const okPath = `/ok-${owner.user.id}.ics`;
    const brokenPath = `/gone-${owner.user.id}.ics`;
    srv.set(okPath, { ics: feed([timed('ok@test', '20300107T090000Z', '20300107T100000Z')], 'Work') });
    srv.set(brokenPath, { ics: feed([timed('b@test', '20300108T090000Z', '20300108T100000Z')], 'Team rota') });
    await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(okPath) }).expect(201);
    const broken = (await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(brokenPath) }).expect(201)).body.connection;

    const allGood = await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    expect(allGood.body).toMatchObject({ success: true, message: 'Sync complete' });
    expect(allGood.body.results).toHaveLength(2);

    srv.set(brokenPath, { status: 404 });
    const failed = await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
    expect(failed.body).toMatchObject({ success: false, message: 'Failed to sync calendars. Please try again.' });
    const bad = failed.body.results.filter((r: { ok: boolean }) => !r.ok);
    expect(bad).toEqual([
      { connection_id: broken.id, name: 'Team rota', provider: 'ics', ok: false, error: expect.stringContaining('404') },
    ]);
    expect(failed.body.connections.find((c: { id: string }) => c.id === broken.id)).toMatchObject({ status: 'error' });
  });

  it('keeps the last good busy time when a later sync times out, is too large, or hits the recurrence cap', async () => {
    const path = `/flaky-${owner.user.id}.ics`;
    srv.set(path, { ics: feed([timed('a@test', '20300107T090000Z', '20300107T100000Z')]) });
    const { body } = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(path) }).expect(201);
    const id = body.connection.id as string;
    const good = await busyOf(t, owner.user.id);
    expect(good).toHaveLength(1);

    // slow server: the 20 s limit is injectable; here 1 s
    srv.set(path, { delayMs: 5_000, ics: feed([]) });
    const quick = { ...t.deps, calendarFetch: createSafeFetch({ allowPrivate: true, timeoutMs: 1_000 }) };
    const started = Date.now();
    const slow = await syncConnection(quick, id);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(slow).toMatchObject({ ok: false, error: 'Calendar server did not answer within 1 second' });
    let conn = (await request(t.app).get('/api/me/calendar/connections').set(owner.auth)).body.connections[0];
    expect(conn).toMatchObject({ status: 'error', last_error: 'Calendar server did not answer within 1 second' });
    expect(await busyOf(t, owner.user.id)).toEqual(good);

    srv.set(path, { hugeBytes: 11 * 1024 * 1024 });
    const big = await syncConnection(t.deps, id);
    expect(big.error).toBe('Calendar feed is larger than 10 MB');
    expect(await busyOf(t, owner.user.id)).toEqual(good);

    // an every-minute series would need > 50 000 instances in the horizon
    srv.set(path, { ics: feed([timed('storm@test', '20300101T000000Z', '20300101T000030Z', 'Storm', ['RRULE:FREQ=MINUTELY'])]) });
    const capped = await syncConnection(t.deps, id);
    expect(capped.ok).toBe(false);
    expect(capped.error).toMatch(/more than 50000 occurrences/);
    conn = (await request(t.app).get('/api/me/calendar/connections').set(owner.auth)).body.connections[0];
    expect(conn.status).toBe('error');
    expect(await busyOf(t, owner.user.id)).toEqual(good);

    // unreadable ICS (truncated): a connection error with the parser's reason, busy time kept
    srv.set(path, { ics: 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:cut@test\r\nDTSTART:20300107T090000Z\r\n' });
    const broken = await syncConnection(t.deps, id);
    expect(broken.error).toBe('Calendar data could not be read: truncated calendar: BEGIN:VEVENT is never closed');
    expect(await busyOf(t, owner.user.id)).toEqual(good);
    srv.set(`${path}.cut`, { ics: 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:cut@test\r\n' });
    const brokenConnect = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(`${path}.cut`) });
    expect(brokenConnect.status).toBe(400);
    expect(brokenConnect.body.error).toMatch(/^Calendar data could not be read/);

    // a server that refuses access marks the connection expired
    srv.set(path, { status: 403 });
    await syncConnection(t.deps, id);
    conn = (await request(t.app).get('/api/me/calendar/connections').set(owner.auth)).body.connections[0];
    expect(conn.status).toBe('expired');
    expect(await busyOf(t, owner.user.id)).toEqual(good);

    // recovery: a good feed makes it active again
    srv.set(path, { ics: feed([timed('a@test', '20300107T150000Z', '20300107T160000Z')]) });
    expect((await syncConnection(t.deps, id)).ok).toBe(true);
    conn = (await request(t.app).get('/api/me/calendar/connections').set(owner.auth)).body.connections[0];
    expect(conn).toMatchObject({ status: 'active', last_error: null });
    expect(await busyOf(t, owner.user.id)).toEqual([{ start: '2030-01-07T15:00:00.000Z', end: '2030-01-07T16:00:00.000Z', zoned: false }]);
  });

  it('re-derives an all-day event when the owner changes time zone (no network)', async () => {
    const path = `/allday-${owner.user.id}.ics`;
    srv.set(path, { ics: feed([allDay('h@test', '20300110'), timed('t@test', '20300111T090000Z', '20300111T100000Z')]) });
    await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(path) }).expect(201);
    expect(await busyOf(t, owner.user.id)).toEqual([
      { start: '2030-01-09T23:00:00.000Z', end: '2030-01-10T23:00:00.000Z', zoned: true },
      { start: '2030-01-11T09:00:00.000Z', end: '2030-01-11T10:00:00.000Z', zoned: false },
    ]);
    const requestsBefore = srv.requests.length;
    await t.db.updateTable('users').set({ timezone: 'America/New_York' }).where('id', '=', owner.user.id).execute();
    await rederiveZoneDependentBusy(t.deps, owner.user.id);
    expect(srv.requests.length).toBe(requestsBefore);
    expect(await busyOf(t, owner.user.id)).toEqual([
      { start: '2030-01-10T05:00:00.000Z', end: '2030-01-11T05:00:00.000Z', zoned: true },
      { start: '2030-01-11T09:00:00.000Z', end: '2030-01-11T10:00:00.000Z', zoned: false },
    ]);

    // through the profile API (PUT /api/me/profile calls rederiveZoneDependentBusy)
    await request(t.app).put('/api/me/profile').set(owner.auth).send({ timezone: 'Asia/Tokyo' }).expect(200);
    expect(await busyOf(t, owner.user.id)).toEqual([
      { start: '2030-01-09T15:00:00.000Z', end: '2030-01-10T15:00:00.000Z', zoned: true },
      { start: '2030-01-11T09:00:00.000Z', end: '2030-01-11T10:00:00.000Z', zoned: false },
    ]);
    expect(srv.requests.length).toBe(requestsBefore);
    const pub = await request(t.app).get(`/api/public/${owner.user.username}/availability`).query({ range: '2030-01-07..2030-01-12' });
    expect(pub.status).toBe(200);
    expect(pub.text).not.toMatch(/Private holiday|Confidential/);
  });

  it('moves the 400-day horizon forward even when the feed never changes', async () => {
    const path = `/far-${owner.user.id}.ics`;
    const far = new Date(NOW + 400 * 86_400_000 + 12 * 3_600_000);
    const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z';
    srv.set(path, { ics: feed([timed('far@test', stamp(far), stamp(new Date(far.getTime() + 3_600_000)))]) });
    await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(path) }).expect(201);
    expect(await busyOf(t, owner.user.id)).toEqual([]);
    t.clock.set(NOW + 2 * 86_400_000);
    try {
      await request(t.app).post('/api/me/calendar/sync').set(owner.auth).expect(200);
      expect(srv.requests.at(-1)!.headers['if-none-match']).toBeTruthy(); // answered 304
      expect(await busyOf(t, owner.user.id)).toEqual([{ start: far.toISOString(), end: new Date(far.getTime() + 3_600_000).toISOString(), zoned: false }]);
    } finally {
      t.clock.set(NOW);
    }
  });

  it('puts engine warnings (unresolvable TZID) on the connection and reads that time in the owner zone', async () => {
    const path = `/tz-${owner.user.id}.ics`;
    srv.set(path, { ics: feed([timed('tz@test', '20300107T090000', '20300107T100000', 'Mystery zone', []).replace('DTSTART:', 'DTSTART;TZID=Mars/Olympus_Mons:').replace('DTEND:', 'DTEND;TZID=Mars/Olympus_Mons:')]) });
    const res = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url(path) });
    expect(res.status).toBe(201);
    expect(res.body.connection.status).toBe('active');
    expect(res.body.connection.warnings.join(' ')).toContain('Mars/Olympus_Mons');
    expect(await busyOf(t, owner.user.id)).toEqual([{ start: '2030-01-07T08:00:00.000Z', end: '2030-01-07T09:00:00.000Z', zoned: true }]);
  });

  it('answers 503 provider_unavailable for unconfigured OAuth providers and 404 for disconnecting what is not there', async () => {
    const g = await request(t.app).post('/api/me/calendar/google/connect').set(owner.auth);
    expect(g.status).toBe(503);
    expect(g.body).toEqual({ error: 'Google Calendar is not configured on this server.', code: 'provider_unavailable' });
    const m = await request(t.app).post('/api/me/calendar/microsoft/connect').set(owner.auth);
    expect(m.status).toBe(503);
    expect(m.body.code).toBe('provider_unavailable');
    for (const p of ['google', 'microsoft', 'apple']) {
      await request(t.app).delete(`/api/me/calendar/${p}/disconnect`).set(owner.auth).expect(404);
    }
    await request(t.app).get('/api/me/calendar/connections').expect(401);
    await request(t.app).post('/api/me/calendar/sync').expect(401);
  });
});

describe('ICS connect with private hosts not allowed', () => {
  const logLines: string[] = [];
  let t: TestApp;
  let srv: IcsServer;
  beforeAll(async () => {
    srv = await startIcsServer();
    t = await createTestApp({ env: { ALLOW_PRIVATE_CALENDAR_HOSTS: 'false' }, logStream: { write: (l: string) => void logLines.push(l) } });
  });
  afterAll(async () => {
    await t?.close();
    await srv?.close();
  });

  it('refuses a loopback feed and never requests it', async () => {
    const owner = await buildUser(t);
    srv.set('/x.ics', { ics: feed([]) });
    const res = await request(t.app).post('/api/me/calendar/ics/connect').set(owner.auth).send({ url: srv.url('/x.ics') });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Address not allowed: private network');
    expect(srv.requests).toHaveLength(0);
    // whoever runs the server learns which setting allows it; the feed's address is not logged
    const warning = logLines.map((l) => JSON.parse(l) as { msg: string; setting?: string }).find((l) => l.setting === 'ALLOW_PRIVATE_CALENDAR_HOSTS');
    expect(warning?.msg).toContain('ALLOW_PRIVATE_CALENDAR_HOSTS=true');
    expect(logLines.join('')).not.toContain('/x.ics');
  });
});
