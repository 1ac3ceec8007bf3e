import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCalendar } from '@avail/shared/ical/calendar.ts';
import { paramOf, propOf, readComponents } from '@avail/shared/ical/content-lines.ts';
import { createDAVClient } from 'tsdav';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRadicale, type RadicaleServer } from '../../../test/radicale.ts';
import { loadConfig } from '../../config.ts';
import type { Meeting } from '../../lib/meeting-ical.ts';
import { createSafeFetch } from '../../lib/safe-fetch.ts';
import { APPLE_INVALID_CREDENTIALS } from '../apple/apple.provider.ts';
import { ProviderWriteDeniedError, type EventWriter, type EventWriterContext, type WriteTarget } from '../event-writer.ts';
import { eventWriterFor, eventWriters } from '../event-writers.ts';
import { ProviderAuthError, ProviderError } from '../provider.ts';
import { caldavObjectName, caldavWriter } from './caldav-writer.ts';
import { caldavProvider } from './caldav.provider.ts';

const PASSWORD = 'radicale-pw-123';
const BOB_PASSWORD = 'bob-pw-456';

/** alice: her own calendars rw, except `alice/readonly` (r); nobody reaches another user's. */
const RIGHTS = `
[root]
user: .+
collection:
permissions: R

[principal]
user: .+
collection: {user}
permissions: RW

[readonly]
user: .+
collection: {user}/readonly(/.*)?
permissions: r

[calendars]
user: .+
collection: {user}/[^/]+(/.*)?
permissions: rw
`;

let n = 0;
const meeting = (over: Partial<Meeting> = {}): Meeting => ({
  uid: `m${Date.now().toString(36)}${++n}@avail.test`,
  sequence: 0,
  startMs: Date.parse('2030-01-07T09:00:00Z'),
  endMs: Date.parse('2030-01-07T09:30:00Z'),
  summary: 'Meeting with Vera Visitor',
  description: 'About the garden',
  organizer: { email: 'owner@example.net', name: 'Olivia Owner' },
  attendee: { email: 'vera@example.org', name: 'Vera Visitor' },
  stampMs: Date.parse('2030-01-01T00:00:00Z'),
  ...over,
});

describe('CalDAV event writer against a real Radicale', () => {
  let radicale: RadicaleServer;
  let dataDir: string;
  let ctx: EventWriterContext;
  let work: string;
  let readonly: string;
  let bobs: string;
  const target = (calendarId: string, secret: string | null = PASSWORD, username = 'alice'): WriteTarget => ({
    config: { serverUrl: radicale.url, username },
    secret,
    calendarId,
  });
  /** The stored object's text, or null when the server answers 404. */
  const stored = async (href: string): Promise<string | null> => {
    const res = await fetch(href, { headers: { authorization: `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}` } });
    if (res.status === 404) return null;
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    radicale = await startRadicale({ users: { alice: PASSWORD, bob: BOB_PASSWORD }, rights: RIGHTS });
    dataDir = mkdtempSync(path.join(tmpdir(), 'avail-caldav-writer-'));
    const config = loadConfig({ DATA_DIR: dataDir, AVAIL_SECRET_KEY: 'ab'.repeat(32), ALLOW_PRIVATE_CALENDAR_HOSTS: 'true', APPLE_CALDAV_URL: radicale.url });
    ctx = { config, fetch: createSafeFetch({ allowPrivate: true }) };
    const alice = await createDAVClient({ serverUrl: radicale.url, credentials: { username: 'alice', password: PASSWORD }, authMethod: 'Basic', defaultAccountType: 'caldav' });
    work = `${radicale.url}alice/work/`;
    await alice.makeCalendar({ url: work, props: { displayname: 'Work' } });
    const bob = await createDAVClient({ serverUrl: radicale.url, credentials: { username: 'bob', password: BOB_PASSWORD }, authMethod: 'Basic', defaultAccountType: 'caldav' });
    bobs = `${radicale.url}bob/home/`;
    await bob.makeCalendar({ url: bobs, props: { displayname: 'Home' } });
    // A calendar alice may only read: made in the storage directly (she may not create it).
    const dir = path.join(radicale.dir, 'collections', 'collection-root', 'alice', 'readonly');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, '.Radicale.props'), JSON.stringify({ tag: 'VCALENDAR', 'D:displayname': 'Subscribed' }));
    readonly = `${radicale.url}alice/readonly/`;
  });
  afterAll(async () => {
    await radicale?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes the meeting under a name from its UID: the visitor is ATTENDEE (SCHEDULE-AGENT=CLIENT), UTC times, no METHOD; a sync lists it', async () => {
    const m = meeting();
    const written = await caldavWriter.writeEvent(target(work), m, ctx);
    expect(written).toEqual({ remoteId: `${work}${caldavObjectName(m.uid)}.ics` });
    expect(caldavWriter.sendsInvitation).toBe(false);

    const text = (await stored(written.remoteId))!;
    const cal = parseCalendar(text);
    expect(cal.events).toHaveLength(1);
    const ev = cal.events[0]!;
    expect(ev.uid).toBe(m.uid);
    expect(ev.title).toBe('Meeting with Vera Visitor');
    expect(ev.attendees).toEqual([{ email: 'vera@example.org', partstat: 'NEEDS-ACTION' }]);
    const root = readComponents(text).roots[0]!;
    expect(propOf(root, 'METHOD')).toBeUndefined();
    const vevent = root.components.find((c) => c.name === 'VEVENT')!;
    const attendee = propOf(vevent, 'ATTENDEE')!;
    expect(paramOf(attendee, 'SCHEDULE-AGENT')).toBe('CLIENT');
    expect(paramOf(attendee, 'CN')).toBe('Vera Visitor');
    expect(propOf(vevent, 'ORGANIZER')!.value.toLowerCase()).toBe('mailto:owner@example.net');
    expect(propOf(vevent, 'DTSTART')!.value).toBe('20300107T090000Z');
    expect(propOf(vevent, 'DTEND')!.value).toBe('20300107T093000Z');
    expect(propOf(vevent, 'DESCRIPTION')!.value).toBe('About the garden');

    const synced = await caldavProvider.sync({ config: { serverUrl: radicale.url, username: 'alice' }, secret: PASSWORD, state: null, known: [] }, ctx);
    expect(synced.upserts.map((u) => u.href)).toContain(written.remoteId);
    expect(synced.calendars!.find((c) => c.id === readonly)?.readOnly).toBe(true);
    expect(synced.calendars!.find((c) => c.id === work)?.readOnly).toBe(false);
  });

  it('never overwrites (If-None-Match: *): writing the same meeting again finds its own copy; a foreign object under the name is an error', async () => {
    const m = meeting();
    const first = await caldavWriter.writeEvent(target(work), m, ctx);
    const again = await caldavWriter.writeEvent(target(work.slice(0, -1)), m, ctx); // the collection URL without its slash works too
    expect(again).toEqual(first);

    // Another client's object already under the name this meeting's UID maps to.
    const squatted = meeting();
    const foreign = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//other//EN', 'BEGIN:VEVENT', 'UID:other@example.org', 'DTSTAMP:20300101T000000Z',
      'DTSTART:20300108T090000Z', 'DTEND:20300108T100000Z', 'SUMMARY:Theirs', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
    const dav = await createDAVClient({ serverUrl: radicale.url, credentials: { username: 'alice', password: PASSWORD }, authMethod: 'Basic', defaultAccountType: 'caldav' });
    const put = await dav.createCalendarObject({ calendar: { url: work }, filename: `${caldavObjectName(squatted.uid)}.ics`, iCalString: foreign });
    expect(put.ok).toBe(true);
    const err = await caldavWriter.writeEvent(target(work), squatted, ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toMatch(/already holds another event/);
    expect(parseCalendar((await stored(`${work}${caldavObjectName(squatted.uid)}.ics`))!).events[0]!.uid).toBe('other@example.org');
  });

  it('deletes the object; deleting it again (404) succeeds', async () => {
    const written = await caldavWriter.writeEvent(target(work), meeting(), ctx);
    expect(await stored(written.remoteId)).not.toBeNull();
    expect(await caldavWriter.deleteEvent(target(work), written.remoteId, ctx)).toEqual({});
    expect(await stored(written.remoteId)).toBeNull();
    expect(await caldavWriter.deleteEvent(target(work), written.remoteId, ctx)).toEqual({});
  });

  it('a UID that is not a safe file name gets a hashed name; two such UIDs never share one', async () => {
    expect(caldavObjectName('abc-123_x.y')).toBe('abc-123_x.y');
    expect(caldavObjectName('8f14e45f-ceea-467f-a0e6-3f1b4e5c2a9d@avail.example.com')).toMatch(
      /^8f14e45f-ceea-467f-a0e6-3f1b4e5c2a9d-avail-example-com-[0-9a-f]{32}$/,
    );
    const a = caldavObjectName('a/b c');
    expect(a).toMatch(/^a-b-c-[0-9a-f]{32}$/);
    expect(caldavObjectName('a b/c')).not.toBe(a);
    expect(caldavObjectName('..')).toMatch(/^[0-9a-f]{32}$/);
    expect(caldavObjectName('x'.repeat(300))).toMatch(/^x{60}-[0-9a-f]{32}$/);
    const m = meeting({ uid: `odd uid/${n}@avail.test` });
    const written = await caldavWriter.writeEvent(target(work), m, ctx);
    expect(written.remoteId).toBe(`${work}${caldavObjectName(m.uid)}.ics`);
    expect(parseCalendar((await stored(written.remoteId))!).events[0]!.uid).toBe(m.uid);
  });

  it('a read-only calendar (403, still readable) → ProviderWriteDeniedError; nothing is written', async () => {
    const err = await caldavWriter.writeEvent(target(readonly), meeting(), ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderWriteDeniedError);
    expect((err as Error).message).toMatch(/does not let Avail add events/);
    await expect(caldavWriter.deleteEvent(target(readonly), `${readonly}x.ics`, ctx)).rejects.toBeInstanceOf(ProviderWriteDeniedError);
  });

  it('a refused password (401) → ProviderAuthError; a calendar the account can no longer reach (403, not readable) → ProviderAuthError', async () => {
    await expect(caldavWriter.writeEvent(target(work, 'wrong'), meeting(), ctx)).rejects.toBeInstanceOf(ProviderAuthError);
    await expect(caldavWriter.deleteEvent(target(work, 'wrong'), `${work}x.ics`, ctx)).rejects.toBeInstanceOf(ProviderAuthError);
    await expect(caldavWriter.writeEvent(target(work, null), meeting(), ctx)).rejects.toBeInstanceOf(ProviderAuthError);
    await expect(caldavWriter.writeEvent(target(bobs), meeting(), ctx)).rejects.toBeInstanceOf(ProviderAuthError);
  });

  it('a collection that does not exist → ProviderError; a bad calendar URL → ProviderError', async () => {
    const err = await caldavWriter.writeEvent(target(`${radicale.url}alice/gone/`), meeting(), ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).not.toBeInstanceOf(ProviderWriteDeniedError);
    expect(err).not.toBeInstanceOf(ProviderAuthError);
    await expect(caldavWriter.writeEvent(target('not a url'), meeting(), ctx)).rejects.toThrow(/no valid CalDAV address/);
    await expect(caldavWriter.writeEvent(target('ftp://example.com/cal/'), meeting(), ctx)).rejects.toThrow(/no valid CalDAV address/);
  });

  it('goes through the SSRF-guarded fetch: a loopback server is refused without ALLOW_PRIVATE_CALENDAR_HOSTS', async () => {
    const guarded = { ...ctx, fetch: createSafeFetch() };
    const err = await caldavWriter.writeEvent(target(work), meeting(), guarded).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).not.toBeInstanceOf(ProviderAuthError);
    expect((err as Error).message).toMatch(/address|allowed|private/i);
  });

  it("the 'apple' writer is the same CalDAV writer with the Apple wording", async () => {
    const apple = eventWriterFor({}, 'apple')!;
    const m = meeting();
    const written = await apple.writeEvent(target(work), m, ctx);
    expect(written.remoteId).toBe(`${work}${caldavObjectName(m.uid)}.ics`);
    await expect(apple.writeEvent(target(work, 'wrong'), meeting(), ctx)).rejects.toThrow(APPLE_INVALID_CREDENTIALS);
    expect(await apple.deleteEvent(target(work), written.remoteId, ctx)).toEqual({});
    expect(await stored(written.remoteId)).toBeNull();
  });
});

describe('eventWriterFor', () => {
  it('gives the writer of caldav, apple, google and microsoft; none for ics or unknown providers', () => {
    expect(eventWriterFor({}, 'caldav')).toBe(eventWriters.caldav);
    expect(eventWriterFor({}, 'apple')).toBe(eventWriters.apple);
    expect(eventWriterFor({}, 'google')).toBe(eventWriters.google);
    expect(eventWriterFor({}, 'microsoft')).toBe(eventWriters.microsoft);
    expect(eventWriters.microsoft.sendsInvitation).toBe(true);
    expect(eventWriters.google.sendsInvitation).toBe(false);
    expect(eventWriterFor({}, 'ics')).toBeUndefined();
    expect(eventWriterFor({}, 'toString')).toBeUndefined();
    expect(eventWriterFor({}, '')).toBeUndefined();
  });

  it('takes the deps override first (tests)', () => {
    const fake: EventWriter = { sendsInvitation: false, writeEvent: async () => ({ remoteId: 'x' }), deleteEvent: async () => ({}) };
    expect(eventWriterFor({ eventWriters: { google: fake } }, 'google')).toBe(fake);
    expect(eventWriterFor({ eventWriters: { google: fake } }, 'caldav')).toBe(eventWriters.caldav);
    expect(eventWriterFor({ eventWriters: { ics: fake } }, 'ics')).toBe(fake);
  });
});
