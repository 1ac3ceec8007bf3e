import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDAVClient } from 'tsdav';
import { startRadicale, type RadicaleServer } from '../../../test/radicale.ts';
import { createSafeFetch } from '../../lib/safe-fetch.ts';
import { ProviderAuthError, type StoredSource } from '../provider.ts';
import { caldavProvider } from './caldav.provider.ts';
import { appleProvider, APPLE_INVALID_CREDENTIALS } from '../apple/apple.provider.ts';

const vevent = (uid: string, start: string, end: string, extra = '') =>
  [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//avail-test//EN',
    'BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', `DTSTART:${start}`, `DTEND:${end}`, 'SUMMARY:Secret meeting', extra,
    'END:VEVENT', 'END:VCALENDAR', '',
  ].filter(Boolean).join('\r\n');

describe('CalDAV provider against a real Radicale', () => {
  let radicale: RadicaleServer;
  let client: Awaited<ReturnType<typeof createDAVClient>>;
  const requests: string[] = [];
  const guarded = createSafeFetch({ allowPrivate: true, onRequest: ({ method, url }) => requests.push(`${method} ${new URL(url).pathname}`) });

  beforeAll(async () => {
    radicale = await startRadicale({ users: { alice: 'secret-pw' } });
    client = await createDAVClient({ serverUrl: radicale.url, credentials: { username: 'alice', password: 'secret-pw' }, authMethod: 'Basic', defaultAccountType: 'caldav' });
    await client.makeCalendar({ url: `${radicale.url}alice/work/`, props: { displayname: 'Work' } });
    await client.makeCalendar({
      url: `${radicale.url}alice/todos/`,
      props: { displayname: 'Todos', 'c:supported-calendar-component-set': { 'c:comp': { _attributes: { name: 'VTODO' } } } },
    });
    const cal = { url: `${radicale.url}alice/work/` };
    await client.createCalendarObject({ calendar: cal, filename: 'a.ics', iCalString: vevent('a@test', '20300107T090000Z', '20300107T100000Z') });
    await client.createCalendarObject({ calendar: cal, filename: 'b.ics', iCalString: vevent('b@test', '20300108T090000Z', '20300108T100000Z') });
  });
  afterAll(async () => {
    await radicale?.stop();
  });

  it('syncs, then costs one request when nothing changed, then fetches only what changed', async () => {
    const config = { serverUrl: radicale.url, username: 'alice' };
    const first = await caldavProvider.sync({ config, secret: 'secret-pw', state: null, known: [] }, { fetch: guarded });
    expect(first.calendarsCount).toBe(1); // the VTODO-only calendar is left out
    expect(first.upserts.map((u) => u.href.split('/').pop()).sort()).toEqual(['a.ics', 'b.ics']);
    expect(first.upserts.every((u) => u.icsText.includes('BEGIN:VEVENT') && u.etag)).toBe(true);
    expect(first.notModified).toBe(false);

    let known: StoredSource[] = first.upserts.map((u) => ({ calendarUrl: u.calendarUrl, href: u.href, etag: u.etag }));
    requests.length = 0;
    const second = await caldavProvider.sync({ config, secret: 'secret-pw', state: first.newState, known }, { fetch: guarded });
    expect(second.notModified).toBe(true);
    expect(second.upserts).toEqual([]);
    expect(requests).toEqual(['PROPFIND /alice/']);

    await client.updateCalendarObject({
      calendarObject: { url: `${radicale.url}alice/work/b.ics`, data: vevent('b@test', '20300108T140000Z', '20300108T150000Z') },
    });
    await client.deleteCalendarObject({ calendarObject: { url: `${radicale.url}alice/work/a.ics` } });
    requests.length = 0;
    const third = await caldavProvider.sync({ config, secret: 'secret-pw', state: second.newState, known }, { fetch: guarded });
    expect(third.notModified).toBe(false);
    expect(third.upserts.map((u) => u.href.split('/').pop())).toEqual(['b.ics']);
    expect(third.upserts[0]!.icsText).toContain('20300108T140000Z');
    expect(third.removals.map((r) => r.href.split('/').pop())).toEqual(['a.ics']);
    // calendar list + sync-collection REPORT + one multiget
    expect(requests).toEqual(['PROPFIND /alice/', 'REPORT /alice/work/', 'REPORT /alice/work/']);

    // a stale/unknown sync token falls back to a full etag listing and still converges
    known = [{ calendarUrl: third.upserts[0]!.calendarUrl, href: third.upserts[0]!.href, etag: 'stale' }];
    const state = structuredClone(third.newState) as { calendars: Record<string, { syncToken?: string; ctag?: string }> };
    for (const c of Object.values(state.calendars)) {
      c.syncToken = 'http://radicale.org/ns/sync/0000000000000000000000000000000000000000';
      c.ctag = 'old';
    }
    const fourth = await caldavProvider.sync({ config, secret: 'secret-pw', state, known }, { fetch: guarded });
    expect(fourth.upserts.map((u) => u.href.split('/').pop())).toEqual(['b.ics']);
    expect(fourth.removals).toEqual([]);
  });

  it('reports the owner addresses and the login e-mail', async () => {
    const res = await caldavProvider.sync({ config: { serverUrl: radicale.url, username: 'alice' }, secret: 'secret-pw', state: null, known: [] }, { fetch: guarded });
    expect(res.ownerEmails).toEqual([]); // Radicale's address set holds no e-mail for a plain login
  });

  it('refuses a wrong password with the provider-specific message', async () => {
    await expect(
      caldavProvider.sync({ config: { serverUrl: radicale.url, username: 'alice' }, secret: 'wrong', state: null, known: [] }, { fetch: guarded }),
    ).rejects.toBeInstanceOf(ProviderAuthError);
    await expect(
      appleProvider.sync({ config: { serverUrl: radicale.url, username: 'alice' }, secret: 'wrong', state: null, known: [] }, { fetch: guarded }),
    ).rejects.toThrow(APPLE_INVALID_CREDENTIALS);
  });

  it('refuses the loopback server when private hosts are not allowed', async () => {
    await expect(
      caldavProvider.sync(
        { config: { serverUrl: radicale.url, username: 'alice' }, secret: 'secret-pw', state: null, known: [] },
        { fetch: createSafeFetch({ allowPrivate: false }) },
      ),
    ).rejects.toThrow('Address not allowed: private network');
  });
});
