import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mergeIntervals } from '@avail/shared/domain/intervals.ts';
import { expandBusy, parseCalendar } from '@avail/shared/ical/calendar.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type GoogleCalendarFake } from '../../../test/fakes/google-calendar-fake.ts';
import { httpsRelayFor } from '../../../test/fakes/push-relay.ts';
import { loadConfig, type Config } from '../../config.ts';
import { ProviderRateLimitError, secretOfError, type OAuthSyncResult, type OAuthTokens } from '../oauth-provider.ts';
import { ProviderAuthError, ProviderError, type SourceUpsert } from '../provider.ts';
import { GOOGLE_REAUTH_MESSAGE, GOOGLE_SCOPES, googleProvider } from './google.provider.ts';

const REDIRECT = 'http://localhost:3000/api/oauth/google/callback';
const TEAM = 'team@group.calendar.google.com';
const BXL = 'Europe/Brussels';

const tmpDirs: string[] = [];
function configFor(fake: GoogleCalendarFake, extra: Record<string, string> = {}): Config {
  const dir = mkdtempSync(path.join(tmpdir(), 'avail-google-'));
  tmpDirs.push(dir);
  return loadConfig({ ...fake.env, DATA_DIR: dir, AVAIL_SECRET_KEY: 'ab'.repeat(32), ...extra });
}
afterAll(() => {
  for (const d of tmpDirs) rmSync(d, { recursive: true, force: true });
});

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Walks the consent page like a browser: GET the auth URL, follow the Allow link, read the redirect. */
async function consent(url: string): Promise<URL> {
  const page = await fetch(url, { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  const href = /id="allow" href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  expect(href).toBeTruthy();
  const approve = await fetch(new URL(href!, url), { redirect: 'manual' });
  expect(approve.status).toBe(302);
  return new URL(approve.headers.get('location')!);
}

async function connect(fake: GoogleCalendarFake, config: Config): Promise<{ tokens: OAuthTokens; account: string | null }> {
  const { verifier, challenge } = pkce();
  const back = await consent(googleProvider.authorizationUrl(config, { state: 's1', codeChallenge: challenge, redirectUri: REDIRECT }));
  return googleProvider.exchangeCode(config, { code: back.searchParams.get('code')!, codeVerifier: verifier, redirectUri: REDIRECT });
}

type Held = Map<string, SourceUpsert>;
const keyOf = (c: string, h: string) => `${c}\n${h}`;
function apply(held: Held, r: OAuthSyncResult): void {
  for (const cal of r.removedCalendars) for (const [k, s] of held) if (s.calendarUrl === cal) held.delete(k);
  for (const x of r.removals) held.delete(keyOf(x.calendarUrl, x.href));
  for (const u of r.upserts) held.set(keyOf(u.calendarUrl, u.href), u);
}
const knownOf = (held: Held) => [...held.values()].map(({ calendarUrl, href, etag }) => ({ calendarUrl, href, etag }));

/** Busy intervals the shared engine derives from the held objects (as sync.service does), ISO strings. */
function busy(held: Held, ownerEmails: string[], from = '2027-03-01T00:00:00Z', to = '2027-05-01T00:00:00Z'): string[] {
  const out: Array<{ start: number; end: number }> = [];
  for (const s of held.values()) {
    const r = expandBusy(parseCalendar(s.icsText), {
      ownerZone: BXL,
      ownerEmails,
      rangeStart: Date.parse(from),
      rangeEnd: Date.parse(to),
    });
    out.push(...r.intervals);
  }
  return mergeIntervals(out).map((i) => `${new Date(i.start).toISOString().slice(0, 16)}/${new Date(i.end).toISOString().slice(11, 16)}`);
}

const timed = (start: string, end: string, timeZone?: string) => ({
  start: { dateTime: start, ...(timeZone ? { timeZone } : {}) },
  end: { dateTime: end, ...(timeZone ? { timeZone } : {}) },
});

describe('Google provider: OAuth', () => {
  let fake: GoogleCalendarFake;
  let config: Config;
  beforeAll(async () => {
    fake = await start();
    config = configFor(fake);
  });
  afterAll(() => fake.close());

  it('is unavailable without a client id and secret', () => {
    expect(googleProvider.unavailableReason(config)).toBeNull();
    const bare = loadConfig({ DATA_DIR: config.DATA_DIR, AVAIL_SECRET_KEY: 'ab'.repeat(32) });
    expect(googleProvider.unavailableReason(bare)).toBe('Google Calendar is not configured on this server.');
  });

  it('builds a consent URL with the read and events scopes, offline access, PKCE S256 and the state', async () => {
    const { challenge } = pkce();
    const url = new URL(googleProvider.authorizationUrl(config, { state: 'st-123', codeChallenge: challenge, redirectUri: REDIRECT }));
    expect(url.origin + url.pathname).toBe(fake.env.GOOGLE_AUTH_URL);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toEqual({
      client_id: fake.env.GOOGLE_CLIENT_ID,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: GOOGLE_SCOPES,
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      state: 'st-123',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const back = await consent(url.href);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('code')).toBeTruthy();
  });

  it('exchanges the code with the PKCE verifier; a wrong verifier or a reused code is refused', async () => {
    const { verifier, challenge } = pkce();
    const back = await consent(googleProvider.authorizationUrl(config, { state: 'x', codeChallenge: challenge, redirectUri: REDIRECT }));
    const code = back.searchParams.get('code')!;
    await expect(
      googleProvider.exchangeCode(config, { code, codeVerifier: pkce().verifier, redirectUri: REDIRECT }),
    ).rejects.toBeInstanceOf(ProviderError);
    const before = Date.now();
    const { tokens, account } = await googleProvider.exchangeCode(config, { code, codeVerifier: verifier, redirectUri: REDIRECT });
    expect(account).toBe('owner@example.com');
    expect(tokens.access_token).toMatch(/^ya29\./);
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.scope).toBe(GOOGLE_SCOPES);
    expect(tokens.expires_at).toBeGreaterThanOrEqual(before + 3_500_000);
    await expect(googleProvider.exchangeCode(config, { code, codeVerifier: verifier, redirectUri: REDIRECT })).rejects.toThrow(
      /expired or was already used/,
    );
  });

  it('refuses a grant without the calendar permission (granular consent)', async () => {
    const partial = await start({ grantedScope: 'openid email' });
    try {
      const cfg = configFor(partial);
      await expect(connect(partial, cfg)).rejects.toThrow('Avail needs permission to see your calendars');
    } finally {
      await partial.close();
    }
  });

  it('revoke posts the refresh token; afterwards a refresh gets invalid_grant → ProviderAuthError', async () => {
    const { tokens } = await connect(fake, config);
    await googleProvider.revoke(config, { secret: JSON.stringify(tokens) });
    expect(fake.revoked).toContain(tokens.refresh_token);
    const err = await googleProvider
      .sync(config, { config: {}, secret: JSON.stringify({ ...tokens, expires_at: 0 }), state: null, known: [] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderAuthError);
    expect((err as Error).message).toBe(GOOGLE_REAUTH_MESSAGE);
    // a second revoke (Google answers 400: already revoked) does not throw
    await expect(googleProvider.revoke(config, { secret: JSON.stringify(tokens) })).resolves.toBeUndefined();
  });

  it('a revoke that cannot reach Google is reported (ProviderError), not swallowed, so the disconnect can log it', async () => {
    const { tokens } = await connect(fake, config);
    const offline = { ...config, GOOGLE_REVOKE_URL: 'http://127.0.0.1:1/revoke' };
    const err = await googleProvider.revoke(offline, { secret: JSON.stringify(tokens) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toBe('Could not reach Google to revoke the access.');
    expect(fake.revoked).not.toContain(tokens.refresh_token);
  });
});

describe('Google provider: sync', () => {
  let fake: GoogleCalendarFake;
  let config: Config;
  let secret = '';
  let state: unknown = null;
  const held: Held = new Map();
  let ownerEmails: string[] = [];

  const run = async () => {
    const r = await googleProvider.sync(config, { config: {}, secret, state, known: knownOf(held) });
    if (r.newSecret) secret = r.newSecret;
    state = r.newState;
    apply(held, r);
    ownerEmails = r.ownerEmails;
    return r;
  };
  const eventRequests = (calendarId: string, since: number) =>
    fake.requests.slice(since).filter((r) => r.path === `/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events`);

  beforeAll(async () => {
    fake = await start({ pageSize: 4 });
    config = configFor(fake);
    secret = JSON.stringify((await connect(fake, config)).tokens);
    const me = fake.account;
    fake.addCalendar({ id: TEAM, summary: 'Team' });
    fake.putEvent(me, { id: 'single', summary: 'Dentist', ...timed('2027-03-16T10:00:00+01:00', '2027-03-16T11:00:00+01:00', BXL) });
    fake.putEvent(me, {
      id: 'transparent',
      summary: 'Focus (free)',
      transparency: 'transparent',
      ...timed('2027-03-16T12:00:00+01:00', '2027-03-16T13:00:00+01:00', BXL),
    });
    fake.putEvent(me, {
      id: 'declined',
      summary: 'Declined invite',
      attendees: [
        { email: 'Owner.Alias@example.com', self: true, responseStatus: 'declined' },
        { email: 'carol@example.com', responseStatus: 'accepted', organizer: true },
      ],
      ...timed('2027-03-16T14:00:00+01:00', '2027-03-16T15:00:00+01:00', BXL),
    });
    fake.putEvent(me, {
      id: 'other-declined',
      summary: 'Bob declined',
      attendees: [
        { email: me, self: true, responseStatus: 'accepted' },
        { email: 'bob@example.com', responseStatus: 'declined' },
      ],
      ...timed('2027-03-16T16:00:00+01:00', '2027-03-16T17:00:00+01:00', BXL),
    });
    fake.putEvent(me, { id: 'allday', summary: 'Conference', start: { date: '2027-03-17' }, end: { date: '2027-03-18' } });
    fake.putEvent(me, {
      id: 'windows',
      summary: 'Imported from Outlook',
      ...timed('2027-03-18T10:00:00+01:00', '2027-03-18T11:00:00+01:00', 'W. Europe Standard Time'),
    });
    fake.putEvent(me, { id: 'offset', summary: 'Call NY', ...timed('2027-03-18T15:00:00-05:00', '2027-03-18T16:00:00-05:00') });
    fake.putEvent(me, {
      id: 'weekly',
      summary: 'Standup',
      ...timed('2027-03-15T09:00:00+01:00', '2027-03-15T10:00:00+01:00', BXL),
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6', 'EXDATE;TZID=Europe/Brussels:20270412T090000'],
    });
    fake.putEvent(me, {
      id: 'weekly_20270322T080000Z',
      recurringEventId: 'weekly',
      originalStartTime: { dateTime: '2027-03-22T09:00:00+01:00', timeZone: BXL },
      summary: 'Standup (moved)',
      ...timed('2027-03-22T14:00:00+01:00', '2027-03-22T15:00:00+01:00', BXL),
    });
    fake.putEvent(me, {
      id: 'weekly_20270405T070000Z',
      status: 'cancelled',
      recurringEventId: 'weekly',
      originalStartTime: { dateTime: '2027-04-05T09:00:00+02:00', timeZone: BXL },
    });
    fake.putEvent(me, { id: 'ancient', summary: 'Long ago', ...timed('2020-01-01T10:00:00Z', '2020-01-01T11:00:00Z') });
    fake.putEvent(TEAM, { id: 'team-1', summary: 'Team sync', ...timed('2027-03-19T10:00:00+01:00', '2027-03-19T11:00:00+01:00', BXL) });
  });
  afterAll(() => fake.close());

  it("names each calendar by its summary (for the owner's why-blocked dialog)", async () => {
    const r = await googleProvider.sync(config, { config: {}, secret, state: null, known: [] });
    expect(r.calendarNames).toMatchObject({ [TEAM]: 'Team' });
  });

  it('first sync: pages through every calendar, one object per series, busy time as the engine derives it', async () => {
    const mark = fake.requests.length;
    const r = await run();
    expect(r.notModified).toBe(false);
    expect(r.calendarsCount).toBe(2);
    expect(r.removals).toEqual([]);
    expect(r.removedCalendars).toEqual([]);
    expect(r.newSecret).toBeUndefined();
    expect((r as { calendarIds?: string[] }).calendarIds).toEqual([fake.account, TEAM]);
    expect((r.newState as { calendarIds: string[] }).calendarIds).toEqual([fake.account, TEAM]);
    expect(new Set(r.ownerEmails)).toEqual(new Set(['owner@example.com', 'owner.alias@example.com']));
    expect(r.upserts.map((u) => `${u.calendarUrl === TEAM ? 'team:' : ''}${u.href}`).sort()).toEqual(
      ['allday', 'declined', 'offset', 'other-declined', 'single', 'team:team-1', 'transparent', 'weekly', 'windows'].sort(),
    );
    // 11 events at 4 per page: 3 pages, showDeleted, never singleEvents.
    const reqs = eventRequests(fake.account, mark);
    expect(reqs).toHaveLength(3);
    expect(reqs.map((q) => q.query.pageToken !== undefined)).toEqual([false, true, true]);
    for (const q of reqs) {
      expect(q.query.showDeleted).toBe('true');
      expect(q.query.singleEvents).toBeUndefined();
      expect(q.query.syncToken).toBeUndefined();
    }
    const weekly = r.upserts.find((u) => u.href === 'weekly')!.icsText;
    expect(weekly).toContain('RRULE:FREQ=WEEKLY;COUNT=6');
    expect(weekly).toContain('RECURRENCE-ID;TZID=Europe/Brussels:20270322T090000');
    expect(weekly).toMatch(/RECURRENCE-ID;TZID=Europe\/Brussels:20270405T090000\r\nDTSTART;TZID=Europe\/Brussels:20270405T090000[\s\S]*?STATUS:CANCELLED/);
    expect(r.upserts.find((u) => u.href === 'windows')!.icsText).toContain('DTSTART;TZID=W. Europe Standard Time:20270318T100000');
    expect(r.upserts.find((u) => u.href === 'offset')!.icsText).toContain('DTSTART:20270318T200000Z');
    expect(r.upserts.find((u) => u.href === 'allday')!.icsText).toContain('DTSTART;VALUE=DATE:20270317');
    expect(r.upserts.find((u) => u.href === 'declined')!.icsText).toContain('ATTENDEE;PARTSTAT=DECLINED:mailto:owner.alias@example.com');
    expect(r.upserts.find((u) => u.href === 'declined')!.icsText).not.toContain('carol');
    expect(busy(held, ownerEmails)).toEqual([
      '2027-03-15T08:00/09:00', // weekly, CET
      '2027-03-16T09:00/10:00', // single
      '2027-03-16T15:00/16:00', // another attendee declined: still busy
      '2027-03-16T23:00/23:00', // all-day 17 March in Brussels (ends 2027-03-17T23:00)
      '2027-03-18T09:00/10:00', // Windows zone name
      '2027-03-18T20:00/21:00', // offset only → UTC
      '2027-03-19T09:00/10:00', // team calendar
      '2027-03-22T13:00/14:00', // moved instance
      '2027-03-29T07:00/08:00', // after the DST change, still 09:00 Brussels
      '2027-04-19T07:00/08:00', // 5 April cancelled, 12 April EXDATE
    ]);
  });

  it('keeps the sync tokens: nothing changed → notModified, one incremental request per calendar', async () => {
    const mark = fake.requests.length;
    const r = await run();
    expect(r).toMatchObject({ notModified: true, upserts: [], removals: [], removedCalendars: [], calendarsCount: 2 });
    const reqs = eventRequests(fake.account, mark);
    expect(reqs).toHaveLength(1);
    expect(reqs[0]!.query.syncToken).toBeTruthy();
    expect(reqs[0]!.query.showDeleted).toBe('true');
    expect(new Set(r.ownerEmails)).toEqual(new Set(['owner@example.com', 'owner.alias@example.com']));
  });

  it('incremental: insert, update, cancel, delete and an instance change return only the changed objects', async () => {
    const me = fake.account;
    fake.putEvent(me, { id: 'new-1', summary: 'New', ...timed('2027-03-23T10:00:00+01:00', '2027-03-23T11:00:00+01:00', BXL) });
    fake.putEvent(me, { id: 'single', summary: 'Dentist (moved)', ...timed('2027-03-16T11:00:00+01:00', '2027-03-16T12:00:00+01:00', BXL) });
    fake.cancelEvent(me, 'other-declined');
    fake.deleteEvent(me, 'offset');
    fake.putEvent(me, {
      id: 'weekly_20270322T080000Z',
      recurringEventId: 'weekly',
      originalStartTime: { dateTime: '2027-03-22T09:00:00+01:00', timeZone: BXL },
      summary: 'Standup (moved again)',
      ...timed('2027-03-22T16:00:00+01:00', '2027-03-22T17:00:00+01:00', BXL),
    });
    fake.putEvent(me, {
      id: 'weekly_20270329T070000Z',
      status: 'cancelled',
      recurringEventId: 'weekly',
      originalStartTime: { dateTime: '2027-03-29T09:00:00+02:00', timeZone: BXL },
    });
    const r = await run();
    expect(r.notModified).toBe(false);
    expect(r.upserts.map((u) => u.href).sort()).toEqual(['new-1', 'single', 'weekly']);
    expect(r.removals.map((x) => x.href).sort()).toEqual(['offset', 'other-declined']);
    const weekly = r.upserts.find((u) => u.href === 'weekly')!.icsText;
    expect(weekly).toContain('RRULE:FREQ=WEEKLY;COUNT=6'); // the master is re-emitted from the sync state
    expect(weekly).toContain('RECURRENCE-ID;TZID=Europe/Brussels:20270405T090000'); // the older cancelled instance too
    expect(busy(held, ownerEmails)).toEqual([
      '2027-03-15T08:00/09:00',
      '2027-03-16T10:00/11:00',
      '2027-03-16T23:00/23:00',
      '2027-03-18T09:00/10:00',
      '2027-03-19T09:00/10:00',
      '2027-03-22T15:00/16:00',
      '2027-03-23T09:00/10:00',
      '2027-04-19T07:00/08:00',
    ]);
  });

  it('a cancelled series master removes the whole series', async () => {
    fake.putEvent(fake.account, {
      id: 'daily',
      summary: 'Daily',
      ...timed('2027-04-01T08:00:00+02:00', '2027-04-01T08:30:00+02:00', BXL),
      recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
    });
    const added = await run();
    expect(added.upserts.map((u) => u.href)).toEqual(['daily']);
    expect(busy(held, ownerEmails, '2027-04-01T00:00:00Z', '2027-04-05T00:00:00Z')).toEqual([
      '2027-04-01T06:00/06:30',
      '2027-04-02T06:00/06:30',
      '2027-04-03T06:00/06:30',
    ]);
    fake.cancelEvent(fake.account, 'daily');
    const gone = await run();
    expect(gone.upserts).toEqual([]);
    expect(gone.removals).toEqual([{ calendarUrl: fake.account, href: 'daily' }]);
    expect((state as { calendars: Record<string, { series: Record<string, unknown> }> }).calendars[fake.account]!.series.daily).toBeUndefined();
  });

  it('410 fullSyncRequired: that calendar is listed in full again; what it no longer returns is removed', async () => {
    const me = fake.account;
    fake.invalidateSyncTokens(me);
    fake.deleteEvent(me, 'declined');
    fake.putEvent(me, { id: 'allday', summary: 'Conference', start: { date: '2027-03-18' }, end: { date: '2027-03-19' } });
    const mark = fake.requests.length;
    const r = await run();
    const reqs = eventRequests(me, mark);
    expect(reqs[0]!.status).toBe(410);
    expect(reqs[0]!.query.syncToken).toBeTruthy();
    expect(reqs.slice(1).every((q) => q.status === 200 && q.query.syncToken === undefined)).toBe(true);
    expect(eventRequests(TEAM, mark).map((q) => q.status)).toEqual([200]); // the other calendar stays incremental
    expect(r.upserts.map((u) => u.href)).toEqual(['allday']); // unchanged objects are not rewritten
    expect(r.removals).toEqual([{ calendarUrl: me, href: 'declined' }]);
    expect(busy(held, ownerEmails)).toContain('2027-03-17T23:00/23:00');
    expect(busy(held, ownerEmails)).not.toContain('2027-03-16T23:00/23:00');
    // The series state was rebuilt by the full listing: a later instance change still re-emits the master.
    fake.putEvent(me, {
      id: 'weekly_20270419T070000Z',
      recurringEventId: 'weekly',
      originalStartTime: { dateTime: '2027-04-19T09:00:00+02:00', timeZone: BXL },
      summary: 'Standup',
      transparency: 'transparent',
      ...timed('2027-04-19T09:00:00+02:00', '2027-04-19T10:00:00+02:00', BXL),
    });
    const next = await run();
    expect(next.upserts.map((u) => u.href)).toEqual(['weekly']);
    expect(next.upserts[0]!.icsText).toContain('RRULE:FREQ=WEEKLY;COUNT=6');
    expect(busy(held, ownerEmails)).not.toContain('2027-04-19T07:00/08:00');
  });

  it('a calendar that disappeared from the list → removedCalendars', async () => {
    fake.removeCalendar(TEAM);
    const r = await run();
    expect(r.removedCalendars).toEqual([TEAM]);
    expect(r.calendarsCount).toBe(1);
    expect((r.newState as { calendarIds: string[] }).calendarIds).toEqual([fake.account]);
    expect([...held.values()].some((s) => s.calendarUrl === TEAM)).toBe(false);
    expect(Object.keys((state as { calendars: object }).calendars)).toEqual([fake.account]);
  });

  it('refreshes an access token Google rejects (401) once and returns the new token set as newSecret', async () => {
    const before = JSON.parse(secret) as OAuthTokens;
    fake.expireAccessTokens();
    const refreshes = fake.refreshCount();
    const r = await googleProvider.sync(config, { config: {}, secret, state, known: knownOf(held) });
    expect(fake.refreshCount()).toBe(refreshes + 1);
    expect(r.newSecret).toBeTruthy();
    const after = JSON.parse(r.newSecret!) as OAuthTokens;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toBe(before.refresh_token);
    expect(after.expires_at).toBeGreaterThan(Date.now() + 3_000_000);
    secret = r.newSecret!;
  });

  it('refreshes before calling when the access token expires within 60 s', async () => {
    const soon = { ...(JSON.parse(secret) as OAuthTokens), expires_at: Date.now() + 30_000 };
    const mark = fake.requests.length;
    const r = await googleProvider.sync(config, { config: {}, secret: JSON.stringify(soon), state, known: knownOf(held) });
    expect(r.newSecret).toBeTruthy();
    expect(fake.requests.slice(mark)[0]!.path).toBe('/token');
    expect(fake.requests.slice(mark).some((q) => q.status === 401)).toBe(false);
    secret = r.newSecret!;
  });

  it('a sync that fails after refreshing the token still hands back the refreshed token set', async () => {
    fake.expireAccessTokens();
    fake.failNext(500, {}, { where: 'api' });
    const err = await googleProvider.sync(config, { config: {}, secret: JSON.stringify({ ...(JSON.parse(secret) as OAuthTokens), expires_at: Date.now() + 10_000 }), state, known: knownOf(held) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    const kept = secretOfError(err);
    expect(kept).toBeTruthy();
    expect((JSON.parse(kept!) as OAuthTokens).expires_at).toBeGreaterThan(Date.now() + 3_000_000);
    secret = kept!;
  });

  it('429 with Retry-After → ProviderRateLimitError with that delay; 503, 403 userRateLimitExceeded and a slow token endpoint too', async () => {
    fake.failNext(429, { 'Retry-After': '7' });
    const e1 = await googleProvider.sync(config, { config: {}, secret, state, known: knownOf(held) }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ProviderRateLimitError);
    expect((e1 as ProviderRateLimitError).retryAfterMs).toBe(7000);

    fake.failNext(503, { 'Retry-After': new Date(Date.now() + 120_000).toUTCString() });
    const e2 = (await googleProvider.sync(config, { config: {}, secret, state, known: knownOf(held) }).catch((e: unknown) => e)) as ProviderRateLimitError;
    expect(e2).toBeInstanceOf(ProviderRateLimitError);
    expect(e2.retryAfterMs).toBeGreaterThan(110_000);
    expect(e2.retryAfterMs).toBeLessThanOrEqual(120_000);

    fake.failNext(403);
    const e3 = (await googleProvider.sync(config, { config: {}, secret, state, known: knownOf(held) }).catch((e: unknown) => e)) as ProviderRateLimitError;
    expect(e3).toBeInstanceOf(ProviderRateLimitError);
    expect(e3.retryAfterMs).toBe(60_000);

    // The token endpoint slowing down while refreshing counts as a rate limit too.
    fake.expireAccessTokens();
    fake.failNext(503, { 'Retry-After': '3' }, { where: 'token' });
    const e5 = (await googleProvider.sync(config, { config: {}, secret, state, known: knownOf(held) }).catch((e: unknown) => e)) as ProviderRateLimitError;
    expect(e5).toBeInstanceOf(ProviderRateLimitError);
    expect(e5.retryAfterMs).toBe(3000);
    const again = await googleProvider.sync(config, { config: {}, secret, state, known: knownOf(held) });
    expect(again.newSecret).toBeTruthy();
    secret = again.newSecret!;

    fake.failNext(500);
    const e4 = await googleProvider.sync(config, { config: {}, secret, state, known: knownOf(held) }).catch((e: unknown) => e);
    expect(e4).toBeInstanceOf(ProviderError);
    expect(e4).not.toBeInstanceOf(ProviderRateLimitError);
    expect(e4).not.toBeInstanceOf(ProviderAuthError);
  });

  it('a revoked or expired refresh token → ProviderAuthError asking to reconnect', async () => {
    fake.revokeRefreshToken();
    fake.expireAccessTokens();
    const err = await googleProvider.sync(config, { config: {}, secret, state, known: knownOf(held) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderAuthError);
    expect((err as Error).message).toBe('Google refused the saved authorization. Please reconnect Google Calendar.');
    expect((err as Error).message).not.toContain((JSON.parse(secret) as OAuthTokens).refresh_token!);
    // An unreadable secret is an auth problem too.
    await expect(googleProvider.sync(config, { config: {}, secret: 'not json', state, known: [] })).rejects.toBeInstanceOf(ProviderAuthError);
  });
});

describe('Google provider: push channels', () => {
  let fake: GoogleCalendarFake;
  let config: Config;
  let secret = '';
  let receiver: http.Server;
  let hookUrl = '';
  const received: http.IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    fake = await start();
    config = configFor(fake);
    fake.addCalendar({ id: TEAM });
    secret = JSON.stringify((await connect(fake, config)).tokens);
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(req.headers);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    // Google delivers only to https: the receiver is reached through the fakes' TLS relay.
    hookUrl = `${httpsRelayFor(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}`)}/api/webhooks/google`;
  });
  afterAll(async () => {
    await fake.close();
    await new Promise<void>((r) => receiver.close(() => r()));
  });

  it('startPush opens one events.watch channel per calendar; notifications carry its id and token', async () => {
    const before = Date.now();
    const { channels, newSecret } = await googleProvider.startPush(config, { secret, webhookUrl: hookUrl, calendarIds: [fake.account, TEAM] });
    expect(newSecret).toBeUndefined();
    expect(channels.map((c) => c.calendar_id)).toEqual([fake.account, TEAM]);
    for (const ch of channels) {
      expect(ch.channel_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(ch.resource_id).toBeTruthy();
      expect(Buffer.from(ch.token, 'base64url')).toHaveLength(32);
      expect(ch.expires_at).toBeGreaterThanOrEqual(before + 7 * 86_400_000 - 5_000);
      const f = fake.channels.find((c) => c.id === ch.channel_id)!;
      expect(f).toMatchObject({ address: hookUrl, token: ch.token, calendarId: ch.calendar_id, resourceId: ch.resource_id });
      expect(f.params.ttl).toBe(String(7 * 24 * 3600));
    }
    await expect.poll(() => received.filter((h) => h['x-goog-resource-state'] === 'sync').length).toBe(2);
    expect(await fake.notify(channels[0]!.channel_id, 'exists')).toBe(200);
    const last = received.at(-1)!;
    expect(last['x-goog-channel-id']).toBe(channels[0]!.channel_id);
    expect(last['x-goog-channel-token']).toBe(channels[0]!.token);
    expect(last['x-goog-resource-id']).toBe(channels[0]!.resource_id);
    expect(last['x-goog-resource-state']).toBe('exists');
    expect(last['x-goog-message-number']).toBe('2');

    // renew: a new channel on the same calendar, the old one stopped
    // The server keeps only a hash of the token: it passes ''.
    const { channel } = await googleProvider.renewPush(config, { secret, webhookUrl: hookUrl, channel: { ...channels[0]!, token: '' } });
    expect(channel.calendar_id).toBe(fake.account);
    expect(channel.channel_id).not.toBe(channels[0]!.channel_id);
    expect(channel.token).not.toBe(channels[0]!.token);
    expect(fake.channels.find((c) => c.id === channels[0]!.channel_id)!.stopped).toBe(true);
    expect(fake.channels.find((c) => c.id === channel.channel_id)!.stopped).toBe(false);

    // stop: channels Google no longer knows (the old one) are ignored
    await googleProvider.stopPush(config, { secret, channels: [channels[0]!, channel, channels[1]!] });
    expect(fake.channels.every((c) => c.stopped)).toBe(true);
  });

  it('refreshes an expired token for push calls and returns newSecret', async () => {
    fake.expireAccessTokens();
    const { channels, newSecret } = await googleProvider.startPush(config, { secret, webhookUrl: hookUrl, calendarIds: [TEAM] });
    expect(channels).toHaveLength(1);
    expect(newSecret).toBeTruthy();
    await googleProvider.stopPush(config, { secret: newSecret!, channels });
  });
});
