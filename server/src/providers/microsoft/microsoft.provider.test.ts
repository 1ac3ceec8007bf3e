import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { icsToBusy } from '@avail/shared/ical/calendar.ts';
import { loadConfig, type Config } from '../../config.ts';
import { start, type MicrosoftGraphFake } from '../../../test/fakes/microsoft-graph-fake.ts';
import { ProviderRateLimitError, type OAuthSyncResult } from '../oauth-provider.ts';
import { ProviderAuthError, ProviderError, type SourceUpsert, type StoredSource } from '../provider.ts';
import { graphEventToIcs } from './graph-event-ical.ts';
import {
  MICROSOFT_AUTH_ERROR,
  MICROSOFT_SELF_ADDRESS,
  createMicrosoftProvider,
  microsoftProvider,
  secretOfError,
  type MicrosoftSyncState,
  type MicrosoftTokens,
} from './microsoft.provider.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const REDIRECT = 'http://localhost:3000/api/oauth/microsoft/callback';
const OWNER_ZONE = 'Europe/Brussels';

/** PKCE pair (RFC 7636 S256). */
function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Goes through the fake's consent page like a browser (GET authorize → click #accept → 302 to the redirect URI). */
async function consent(authUrl: string): Promise<URL> {
  const page = await fetch(authUrl, { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  const href = /<a id="accept" href="([^"]+)"/.exec(html)?.[1];
  expect(href).toBeTruthy();
  const back = await fetch(new URL(href!, authUrl), { redirect: 'manual' });
  expect(back.status).toBe(302);
  return new URL(back.headers.get('location')!);
}

/** Held sources after applying a result (what sync.service's mergeSources does). */
function apply(held: Map<string, SourceUpsert>, r: OAuthSyncResult) {
  for (const cal of r.removedCalendars) for (const [k, s] of held) if (s.calendarUrl === cal) held.delete(k);
  for (const x of r.removals) held.delete(`${x.calendarUrl}\n${x.href}`);
  for (const u of r.upserts) held.set(`${u.calendarUrl}\n${u.href}`, u);
}

function knownOf(held: Map<string, SourceUpsert>): StoredSource[] {
  return [...held.values()].map(({ calendarUrl, href, etag }) => ({ calendarUrl, href, etag }));
}

/** Busy intervals the shared engine derives from the held objects (as sync.service does), as ISO pairs. */
function busyOf(held: Map<string, SourceUpsert>, ownerEmails: string[], now: number): string[] {
  const out: Array<{ start: number; end: number }> = [];
  for (const s of held.values()) {
    const r = icsToBusy(s.icsText, { ownerZone: OWNER_ZONE, ownerEmails, rangeStart: now - 30 * DAY, rangeEnd: now + 400 * DAY });
    expect(r.warnings).toEqual([]);
    out.push(...r.intervals);
  }
  return out.sort((a, b) => a.start - b.start).map((i) => `${new Date(i.start).toISOString()}/${new Date(i.end).toISOString()}`);
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const span = (a: number, b: number) => `${new Date(a).toISOString()}/${new Date(b).toISOString()}`;

describe('Microsoft provider against the Graph fake', () => {
  let fake: MicrosoftGraphFake;
  let config: Config;
  let dataDir: string;
  /** A Monday 09:00 UTC between 7 and 14 days ahead. */
  let monday: number;

  beforeAll(async () => {
    fake = await start();
    dataDir = mkdtempSync(path.join(tmpdir(), 'avail-ms-'));
    config = loadConfig({ ...fake.env, DATA_DIR: dataDir, AVAIL_SECRET_KEY: 'ab'.repeat(32) });
    const d = new Date(Date.now() + 7 * DAY);
    d.setUTCHours(9, 0, 0, 0);
    while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1);
    monday = d.getTime();
  });
  afterAll(async () => {
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A connected account's token JSON, obtained through the real flow. */
  async function connect(): Promise<{ secret: string; tokens: MicrosoftTokens; account: string | null }> {
    const { verifier, challenge } = pkce();
    const url = microsoftProvider.authorizationUrl(config, { state: 'st-1', codeChallenge: challenge, redirectUri: REDIRECT });
    const back = await consent(url);
    const { tokens, account } = await microsoftProvider.exchangeCode(config, { code: back.searchParams.get('code')!, codeVerifier: verifier, redirectUri: REDIRECT });
    return { secret: JSON.stringify(tokens), tokens: tokens as MicrosoftTokens, account };
  }

  describe('sign-in', () => {
    it('builds the v2.0 authorize URL with the tenant, the Calendars.ReadWrite scope, PKCE S256 and state', () => {
      expect(microsoftProvider.unavailableReason(config)).toBeNull();
      expect(microsoftProvider.unavailableReason({ ...config, MICROSOFT_CLIENT_SECRET: undefined })).toBe('Microsoft Outlook Calendar is not configured on this server.');
      const url = new URL(microsoftProvider.authorizationUrl(config, { state: 'abc', codeChallenge: 'x'.repeat(43), redirectUri: REDIRECT }));
      expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/common/oauth2/v2.0/authorize`);
      const q = url.searchParams;
      expect(q.get('client_id')).toBe(fake.env.MICROSOFT_CLIENT_ID);
      expect(q.get('response_type')).toBe('code');
      expect(q.get('response_mode')).toBe('query');
      expect(q.get('redirect_uri')).toBe(REDIRECT);
      expect(q.get('state')).toBe('abc');
      expect(q.get('code_challenge')).toBe('x'.repeat(43));
      expect(q.get('code_challenge_method')).toBe('S256');
      expect(q.get('scope')!.split(' ').sort()).toEqual(['Calendars.ReadWrite', 'email', 'offline_access', 'openid']);
      const other = new URL(microsoftProvider.authorizationUrl({ ...config, MICROSOFT_TENANT: 'organizations' }, { state: 's', codeChallenge: 'c', redirectUri: REDIRECT }));
      expect(other.pathname).toBe('/organizations/oauth2/v2.0/authorize');
    });

    it('exchanges the code with the PKCE verifier; a wrong verifier is refused', async () => {
      const { challenge } = pkce();
      const url = microsoftProvider.authorizationUrl(config, { state: 'st-x', codeChallenge: challenge, redirectUri: REDIRECT });
      const back = await consent(url);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect(back.searchParams.get('state')).toBe('st-x');
      const err = await microsoftProvider
        .exchangeCode(config, { code: back.searchParams.get('code')!, codeVerifier: pkce().verifier, redirectUri: REDIRECT })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect(err).not.toBeInstanceOf(ProviderAuthError);
      expect((err as Error).message).not.toMatch(/AADSTS|code/i);

      const before = Date.now();
      const { tokens, account } = await connect();
      expect(account).toBe('owner@contoso.example');
      expect(tokens.account).toBe('owner@contoso.example');
      expect(tokens.access_token).toBeTruthy();
      expect(tokens.refresh_token).toBeTruthy();
      expect(tokens.expires_at).toBeGreaterThanOrEqual(before + 3_598_000);
      expect(tokens.expires_at).toBeLessThanOrEqual(Date.now() + 3_600_000);
    });
  });

  describe('sync', () => {
    let work: string;
    let home: string;
    let ids: Record<string, string>;
    let secret: string;
    const provider = createMicrosoftProvider({ pageSize: 3 });

    beforeAll(async () => {
      work = fake.addCalendar('Work');
      home = fake.addCalendar('Home');
      const at = (days: number, hours: number) => iso(monday + days * DAY + hours * HOUR);
      ids = {
        busy: fake.putEvent(work, { subject: 'Secret planning', start: at(0, 4), end: at(0, 5) }), // Mon 13:00–14:00 UTC
        tentative: fake.putEvent(work, { subject: 'Maybe', start: at(1, 0), end: at(1, 1), showAs: 'tentative' }),
        free: fake.putEvent(work, { subject: 'Focus (free)', start: at(1, 2), end: at(1, 3), showAs: 'free' }),
        declined: fake.putEvent(work, { subject: 'Declined invite', start: at(1, 4), end: at(1, 5), response: 'declined' }),
        accepted: fake.putEvent(work, { subject: 'Accepted invite', start: at(1, 6), end: at(1, 7), response: 'accepted', showAs: 'oof' }),
        cancelled: fake.putEvent(work, { subject: 'Called off', start: at(2, 0), end: at(2, 1), isCancelled: true }),
        series: fake.putEvent(work, { subject: 'Weekly sync', start: at(0, 0), end: at(0, 1), weekly: { count: 5 } }),
        allDay: fake.putEvent(home, {
          subject: 'Holiday',
          start: iso(monday + 3 * DAY).slice(0, 10),
          end: iso(monday + 5 * DAY).slice(0, 10),
          isAllDay: true,
          showAs: 'oof',
        }),
      };
      // Series: 2nd occurrence moved one hour later, 3rd occurrence cancelled.
      ids.moved = fake.patchOccurrence(work, ids.series!, iso(monday + 7 * DAY), { start: iso(monday + 7 * DAY + HOUR), end: iso(monday + 7 * DAY + 2 * HOUR) });
      ids.cancelledOcc = fake.patchOccurrence(work, ids.series!, iso(monday + 14 * DAY), { isCancelled: true });
      secret = (await connect()).secret;
    });

    it("names each calendar by its Graph name (for the owner's why-blocked dialog)", async () => {
      const r = await provider.sync(config, { config: {}, secret, state: null, known: [] });
      expect(r.calendarNames).toMatchObject({ [work]: 'Work', [home]: 'Home' });
    });

    it('full sync: every instance is one object; the shared engine derives exactly the busy time', async () => {
      const held = new Map<string, SourceUpsert>();
      const before = fake.log.length;
      const now = Date.now();
      const r = await provider.sync(config, { config: {}, secret, state: null, known: [] });
      apply(held, r);
      const calls = fake.log.slice(before);
      // Paging: 12 instances in Work at 3 per page → 4 pages of calendarView/delta.
      expect(calls.filter((c) => c.includes(`/calendarView/delta`)).length).toBeGreaterThanOrEqual(5);
      expect(r.calendarsCount).toBe(2);
      expect(r.notModified).toBe(false);
      expect(r.removals).toEqual([]);
      expect(r.upserts.filter((u) => u.calendarUrl === work)).toHaveLength(11); // 6 singles + 5 occurrences
      expect(r.upserts.filter((u) => u.calendarUrl === home)).toHaveLength(1);
      expect(r.upserts.map((u) => u.href)).not.toContain(ids.series); // never the series master
      expect(r.upserts.map((u) => u.href)).toContain(ids.moved);
      expect(r.ownerEmails).toContain('owner@contoso.example');
      expect(r.newSecret).toBeUndefined();
      const state = r.newState as MicrosoftSyncState;
      expect(Object.keys(state.calendars).sort()).toEqual([work, home].sort());
      expect(state.calendarIds.sort()).toEqual([work, home].sort());
      expect(r.calendarIds!.sort()).toEqual([work, home].sort());
      expect(state.calendars[work]!.deltaLink).toContain('$deltatoken=');
      expect(state.calendars[work]!.windowStart).toBeGreaterThanOrEqual(now - 30 * DAY - 1000);
      expect(state.calendars[work]!.windowEnd).toBeLessThanOrEqual(Date.now() + 400 * DAY);
      expect(JSON.stringify(state)).not.toContain('access_token');

      const m = monday;
      // Brussels all-day: Thursday 00:00 → Saturday 00:00 local (UTC+1 or +2).
      const allDayStart = new Date(m + 3 * DAY);
      const bxOffset = (ms: number) => {
        const local = new Date(new Date(ms).toLocaleString('en-US', { timeZone: OWNER_ZONE }));
        const utc = new Date(new Date(ms).toLocaleString('en-US', { timeZone: 'UTC' }));
        return local.getTime() - utc.getTime();
      };
      const midnight = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), new Date(ms).getUTCDate());
      const adStart = midnight(allDayStart.getTime()) - bxOffset(midnight(allDayStart.getTime()));
      const adEnd = midnight(m + 5 * DAY) - bxOffset(midnight(m + 5 * DAY));
      expect(busyOf(held, r.ownerEmails, now)).toEqual([
        span(m, m + HOUR), // series #1
        span(m + 4 * HOUR, m + 5 * HOUR), // busy
        span(m + DAY, m + DAY + HOUR), // tentative is busy
        // free (showAs free) and declined: not busy
        span(m + DAY + 6 * HOUR, m + DAY + 7 * HOUR), // accepted, oof
        // cancelled single: not busy
        span(adStart, adEnd), // all-day in the owner's zone
        span(m + 7 * DAY + HOUR, m + 7 * DAY + 2 * HOUR), // moved exception
        // 3rd occurrence cancelled
        span(m + 21 * DAY, m + 21 * DAY + HOUR),
        span(m + 28 * DAY, m + 28 * DAY + HOUR),
      ].sort());

      const declined = r.upserts.find((u) => u.href === ids.declined)!.icsText;
      expect(declined).toContain('ATTENDEE;PARTSTAT=DECLINED:mailto:owner@contoso.example');
      const free = r.upserts.find((u) => u.href === ids.free)!.icsText;
      expect(free).toContain('TRANSP:TRANSPARENT');
      expect(free).toContain('X-MICROSOFT-CDO-BUSYSTATUS:FREE');
      expect(r.upserts.find((u) => u.href === ids.cancelled)!.icsText).toContain('STATUS:CANCELLED');
      const allDay = r.upserts.find((u) => u.calendarUrl === home)!.icsText;
      expect(allDay).toContain(`DTSTART;VALUE=DATE:${iso(m + 3 * DAY).slice(0, 10).replace(/-/g, '')}`);
      expect(allDay).toContain(`DTEND;VALUE=DATE:${iso(m + 5 * DAY).slice(0, 10).replace(/-/g, '')}`);
    });

    it('incremental by deltaLink: insert, update, cancel, delete; nothing changed → notModified', async () => {
      const held = new Map<string, SourceUpsert>();
      const first = await provider.sync(config, { config: {}, secret, state: null, known: [] });
      apply(held, first);

      const quiet = await provider.sync(config, { config: {}, secret, state: first.newState, known: knownOf(held) });
      expect(quiet.notModified).toBe(true);
      expect(quiet.upserts).toEqual([]);
      expect(quiet.removals).toEqual([]);

      const added = fake.putEvent(home, { subject: 'Dentist', start: iso(monday + 2 * DAY + 5 * HOUR), end: iso(monday + 2 * DAY + 6 * HOUR) });
      fake.putEvent(work, { id: ids.busy, subject: 'Secret planning (moved)', start: iso(monday + 4 * HOUR + 30 * 60_000), end: iso(monday + 6 * HOUR) });
      fake.cancelEvent(work, ids.tentative!);
      fake.deleteEvent(work, ids.accepted!);
      const occ4 = fake.instanceIds(work, monday + 21 * DAY - HOUR, monday + 21 * DAY + 2 * HOUR)[0]!;
      fake.deleteEvent(work, occ4);

      const before = fake.log.length;
      const second = await provider.sync(config, { config: {}, secret, state: quiet.newState, known: knownOf(held) });
      const calls = fake.log.slice(before);
      expect(calls.some((c) => c.includes('calendarView/delta') && !c.includes('$'))).toBe(true); // path only in the log
      expect(second.notModified).toBe(false);
      expect(second.upserts.map((u) => u.href).sort()).toEqual([added, ids.busy, ids.tentative].sort());
      expect(second.removals.map((x) => x.href).sort()).toEqual([ids.accepted, occ4].sort());
      expect(second.removedCalendars).toEqual([]);
      apply(held, second);
      const busy = busyOf(held, second.ownerEmails, Date.now());
      const m = monday;
      expect(busy).toContain(span(m + 4.5 * HOUR, m + 6 * HOUR));
      expect(busy).toContain(span(m + 2 * DAY + 5 * HOUR, m + 2 * DAY + 6 * HOUR));
      expect(busy).not.toContain(span(m + DAY, m + DAY + HOUR)); // cancelled now
      expect(busy).not.toContain(span(m + DAY + 6 * HOUR, m + DAY + 7 * HOUR)); // deleted
      expect(busy).not.toContain(span(m + 21 * DAY, m + 21 * DAY + HOUR)); // deleted occurrence
      expect(busy).toContain(span(m + 28 * DAY, m + 28 * DAY + HOUR));
    });

    it('410 syncStateNotFound → full round of the calendar, removing what is gone', async () => {
      const held = new Map<string, SourceUpsert>();
      const first = await provider.sync(config, { config: {}, secret, state: null, known: [] });
      apply(held, first);
      const doomed = fake.putEvent(work, { subject: 'Temp', start: iso(monday + 3 * DAY), end: iso(monday + 3 * DAY + HOUR) });
      const mid = await provider.sync(config, { config: {}, secret, state: first.newState, known: knownOf(held) });
      apply(held, mid);
      expect(mid.upserts.map((u) => u.href)).toEqual([doomed]);

      fake.invalidateDeltaTokens();
      fake.deleteEvent(work, doomed);
      const r = await provider.sync(config, { config: {}, secret, state: mid.newState, known: knownOf(held) });
      expect(r.notModified).toBe(false);
      expect(r.removals).toEqual([{ calendarUrl: work, href: doomed }]);
      expect(r.upserts.length).toBe(held.size - 1);
      apply(held, r);
      expect([...held.values()].some((s) => s.href === doomed)).toBe(false);
      const st = r.newState as MicrosoftSyncState;
      expect(st.calendars[work]!.deltaLink).not.toBe((mid.newState as MicrosoftSyncState).calendars[work]!.deltaLink);
    });

    it('restarts the delta with a fresh window after a day, and drops calendars that disappeared', async () => {
      const held = new Map<string, SourceUpsert>();
      const first = await provider.sync(config, { config: {}, secret, state: null, known: [] });
      apply(held, first);
      const later = Date.now() + 2 * DAY;
      const movedClock = createMicrosoftProvider({ pageSize: 3, now: () => later });
      const extra = fake.addCalendar('Shared');
      const r = await movedClock.sync(config, { config: {}, secret, state: first.newState, known: knownOf(held) });
      const st = r.newState as MicrosoftSyncState;
      expect(st.calendars[work]!.windowSetAt).toBe(later);
      expect(st.calendars[work]!.windowStart).toBe(later - 30 * DAY);
      expect(st.calendars[work]!.windowEnd).toBe(later + 400 * DAY);
      expect(r.upserts.filter((u) => u.calendarUrl === work).length).toBe([...held.values()].filter((s) => s.calendarUrl === work).length);
      expect(r.calendarsCount).toBe(3);

      fake.removeCalendar(extra);
      const r2 = await provider.sync(config, { config: {}, secret, state: { ...st, calendars: { ...st.calendars, gone: st.calendars[extra]! } }, known: knownOf(held) });
      expect(r2.removedCalendars.sort()).toEqual(['gone', extra].sort());
      expect(r2.calendarsCount).toBe(2);
    });
  });

  describe('tokens and errors', () => {
    let secret: string;
    let cal: string;
    beforeAll(async () => {
      cal = fake.addCalendar('Tokens');
      fake.putEvent(cal, { subject: 'x', start: iso(monday), end: iso(monday + HOUR) });
    });
    beforeEach(async () => {
      secret = (await connect()).secret;
    });

    it('refreshes a token that expires within 60 s and returns the rotated refresh token as newSecret', async () => {
      const t = JSON.parse(secret) as MicrosoftTokens;
      const soon = JSON.stringify({ ...t, expires_at: Date.now() + 30_000 });
      const r = await microsoftProvider.sync(config, { config: {}, secret: soon, state: null, known: [] });
      expect(r.newSecret).toBeTruthy();
      const n = JSON.parse(r.newSecret!) as MicrosoftTokens;
      expect(n.access_token).not.toBe(t.access_token);
      expect(n.refresh_token).toBeTruthy();
      expect(n.refresh_token).not.toBe(t.refresh_token);
      expect(n.expires_at).toBeGreaterThan(Date.now() + 3_500_000);
      expect(n.account).toBe('owner@contoso.example');
    });

    it('refreshes once on a 401 and retries', async () => {
      fake.expireAccessTokens();
      const r = await microsoftProvider.sync(config, { config: {}, secret, state: null, known: [] });
      expect(r.newSecret).toBeTruthy();
      expect(r.upserts.length).toBeGreaterThan(0);
    });

    it('invalid_grant (revoked grant) → ProviderAuthError with the reconnect text', async () => {
      fake.revokeRefreshToken();
      fake.expireAccessTokens();
      const err = await microsoftProvider.sync(config, { config: {}, secret, state: null, known: [] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderAuthError);
      expect((err as Error).message).toBe(MICROSOFT_AUTH_ERROR);
      expect(MICROSOFT_AUTH_ERROR).toBe('Microsoft refused the saved authorization. Please reconnect Outlook Calendar.');
      const broken = await microsoftProvider.sync(config, { config: {}, secret: 'not json', state: null, known: [] }).catch((e: unknown) => e);
      expect(broken).toBeInstanceOf(ProviderAuthError);
    });

    it('429 / 503 with Retry-After → ProviderRateLimitError with that delay', async () => {
      fake.failNext(429, { 'Retry-After': '7' });
      const err = await microsoftProvider.sync(config, { config: {}, secret, state: null, known: [] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderRateLimitError);
      expect((err as ProviderRateLimitError).retryAfterMs).toBe(7000);

      fake.failNext(503, { 'Retry-After': new Date(Date.now() + 120_000).toUTCString() });
      const err2 = await microsoftProvider.sync(config, { config: {}, secret, state: null, known: [] }).catch((e: unknown) => e);
      expect(err2).toBeInstanceOf(ProviderRateLimitError);
      expect((err2 as ProviderRateLimitError).retryAfterMs).toBeGreaterThan(100_000);
      expect((err2 as ProviderRateLimitError).retryAfterMs).toBeLessThanOrEqual(120_000);
    });

    it('never sends the token to a nextLink on another host', async () => {
      const seen: string[] = [];
      const provider = createMicrosoftProvider({
        pageSize: 1,
        fetch: async (input, init) => {
          const url = String(input);
          seen.push(new URL(url).host);
          const res = await fetch(input, init);
          if (!url.includes('/calendarView/delta')) return res;
          const body = (await res.json()) as Record<string, unknown>;
          body['@odata.nextLink'] = 'https://evil.example/v1.0/me/calendarView/delta?$skiptoken=x';
          delete body['@odata.deltaLink'];
          return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
        },
      });
      const err = await provider.sync(config, { config: {}, secret, state: null, known: [] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect(seen).not.toContain('evil.example');
    });

    it('an error after a refresh still carries the refreshed secret', async () => {
      const t = JSON.parse(secret) as MicrosoftTokens;
      fake.failNext(429, { 'Retry-After': '1' });
      const err = await microsoftProvider
        .sync(config, { config: {}, secret: JSON.stringify({ ...t, expires_at: 0 }), state: null, known: [] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderRateLimitError);
      const s = secretOfError(err);
      expect(s).toBeTruthy();
      expect((JSON.parse(s!) as MicrosoftTokens).refresh_token).not.toBe(t.refresh_token);
    });
  });

  describe('push subscriptions', () => {
    let hook: Server;
    let hookUrl: string;
    let echo = true;
    const notifications: unknown[] = [];
    let secret: string;
    let cals: string[];

    beforeAll(async () => {
      hook = createServer((req, res) => {
        const u = new URL(req.url!, 'http://x');
        const token = u.searchParams.get('validationToken');
        if (token !== null) {
          if (!echo) return void res.writeHead(500).end();
          res.writeHead(200, { 'content-type': 'text/plain' });
          return void res.end(token);
        }
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          notifications.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          res.writeHead(202).end();
        });
      });
      await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
      hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/api/webhooks/microsoft`;
      cals = [fake.addCalendar('P1'), fake.addCalendar('P2')];
      secret = (await connect()).secret;
    });
    afterAll(async () => {
      await new Promise<void>((r) => hook.close(() => r()));
    });
    afterEach(() => {
      echo = true;
    });

    it('creates one subscription per calendar after the validation handshake, renews and deletes them', async () => {
      const before = Date.now();
      const { channels } = await microsoftProvider.startPush(config, { secret, webhookUrl: hookUrl, calendarIds: cals });
      expect(channels).toHaveLength(2);
      const subs = fake.subscriptions;
      for (const [i, c] of channels.entries()) {
        const sub = subs.find((s) => s.id === c.channel_id)!;
        expect(sub).toBeTruthy();
        expect(c.resource_id).toBeNull();
        expect(c.calendar_id).toBe(cals[i]);
        expect(sub.resource).toBe(`me/calendars/${cals[i]}/events`);
        expect(sub.changeType).toBe('created,updated,deleted');
        expect(sub.notificationUrl).toBe(hookUrl);
        expect(sub.clientState).toBe(c.token);
        expect(c.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(c.expires_at).toBeGreaterThanOrEqual(before + 4200 * 60_000 - 1000);
        expect(c.expires_at).toBeLessThanOrEqual(Date.now() + 4200 * 60_000);
      }
      expect(channels[0]!.token).not.toBe(channels[1]!.token);

      expect(await fake.notify(channels[0]!.channel_id)).toBe(202);
      const n = notifications.at(-1) as { value: Array<{ subscriptionId: string; clientState: string; changeType: string; tenantId: string }> };
      expect(n.value[0]!.subscriptionId).toBe(channels[0]!.channel_id);
      expect(n.value[0]!.clientState).toBe(channels[0]!.token);

      const later = Date.now() + 20 * 60_000; // Graph caps the expiry at 4230 min from ITS clock
      const renewer = createMicrosoftProvider({ now: () => later });
      // The server keeps only a hash of the token and passes '' (oauth-provider.ts renewPush).
      const old = { ...channels[0]!, token: '' };
      const { channel } = await renewer.renewPush(config, { secret, webhookUrl: hookUrl, channel: old });
      expect(channel.channel_id).toBe(old.channel_id);
      expect(channel.token).toBe(''); // PATCH keeps the subscription and its clientState
      expect(channel.expires_at).toBeGreaterThan(old.expires_at);
      expect(Date.parse(fake.subscriptions.find((s) => s.id === old.channel_id)!.expirationDateTime)).toBe(channel.expires_at);

      await microsoftProvider.stopPush(config, { secret, channels });
      expect(fake.subscriptions).toEqual([]);
      await expect(microsoftProvider.stopPush(config, { secret, channels })).resolves.toBeUndefined(); // 404s ignored

      // Renewing a subscription Graph forgot creates a new one for the same calendar.
      const { channel: replaced } = await microsoftProvider.renewPush(config, { secret, webhookUrl: hookUrl, channel: old });
      expect(replaced.channel_id).not.toBe(old.channel_id);
      expect(replaced.calendar_id).toBe(old.calendar_id);
      expect(replaced.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(fake.subscriptions[0]!.clientState).toBe(replaced.token);
      expect(fake.subscriptions.map((s) => s.id)).toEqual([replaced.channel_id]);
      await microsoftProvider.stopPush(config, { secret, channels: [replaced] });
    });

    it('fails (and leaves nothing behind) when the endpoint does not echo the validation token', async () => {
      echo = false;
      const err = await microsoftProvider.startPush(config, { secret, webhookUrl: hookUrl, calendarIds: cals }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect(fake.subscriptions).toEqual([]);
    });

    it('revoke is a no-op', async () => {
      await expect(microsoftProvider.revoke(config, { secret })).resolves.toBeUndefined();
    });
  });
});

describe('graphEventToIcs', () => {
  const base = { id: 'AAMkAG+/=long-id-'.padEnd(160, 'x'), subject: 'Ünïcödé; title, with\nlines' };

  it('writes UTC times, folds long lines and round-trips through the shared reader', () => {
    const ics = graphEventToIcs(
      { ...base, type: 'occurrence', seriesMasterId: 'S1', start: { dateTime: '2030-01-07T09:00:00.0000000', timeZone: 'UTC' }, end: { dateTime: '2030-01-07T10:30:00.0000000', timeZone: 'UTC' } },
      { ownerEmail: 'o@x.example' },
    )!;
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(ics).toContain('DTSTART:20300107T090000Z');
    const r = icsToBusy(ics, { ownerZone: 'UTC', rangeStart: Date.UTC(2030, 0, 1), rangeEnd: Date.UTC(2030, 1, 1) });
    expect(r.events[0]!.uid).toBe(base.id);
    expect(r.events[0]!.title).toBe(base.subject);
    expect(r.intervals.map((i) => [i.start, i.end])).toEqual([[Date.UTC(2030, 0, 7, 9), Date.UTC(2030, 0, 7, 10, 30)]]);
  });

  it('keeps a non-UTC Graph zone as TZID (Windows names resolve in the engine)', () => {
    const ics = graphEventToIcs(
      { ...base, start: { dateTime: '2030-07-01T09:00:00.0000000', timeZone: 'W. Europe Standard Time' }, end: { dateTime: '2030-07-01T10:00:00.0000000', timeZone: 'W. Europe Standard Time' } },
      { ownerEmail: '' },
    )!;
    expect(ics).toContain('DTSTART;TZID=W. Europe Standard Time:20300701T090000');
    const r = icsToBusy(ics, { ownerZone: 'UTC', rangeStart: Date.UTC(2030, 5, 1), rangeEnd: Date.UTC(2030, 7, 1) });
    expect(r.intervals.map((i) => i.start)).toEqual([Date.UTC(2030, 6, 1, 7)]);
  });

  it('all-day: date part (rounded when not midnight), busy in the owner zone; showAs / response mapping', () => {
    const ad = (s: string, e: string) =>
      graphEventToIcs({ ...base, isAllDay: true, start: { dateTime: s, timeZone: 'UTC' }, end: { dateTime: e, timeZone: 'UTC' } }, { ownerEmail: 'o@x.example' })!;
    const a = ad('2030-01-07T00:00:00.0000000', '2030-01-08T00:00:00.0000000');
    expect(a).toContain('DTSTART;VALUE=DATE:20300107');
    expect(a).toContain('DTEND;VALUE=DATE:20300108');
    const r = icsToBusy(a, { ownerZone: 'Asia/Tokyo', rangeStart: Date.UTC(2030, 0, 1), rangeEnd: Date.UTC(2030, 1, 1) });
    expect(r.intervals.map((i) => [i.start, i.end, i.dependsOnOwnerZone])).toEqual([[Date.UTC(2030, 0, 6, 15), Date.UTC(2030, 0, 7, 15), true]]);
    expect(ad('2030-01-06T23:00:00.0000000', '2030-01-07T23:00:00.0000000')).toContain('DTSTART;VALUE=DATE:20300107'); // east of UTC
    expect(ad('2030-01-07T08:00:00.0000000', '2030-01-08T08:00:00.0000000')).toContain('DTSTART;VALUE=DATE:20300107'); // west of UTC

    const t = (extra: object) =>
      graphEventToIcs({ ...base, start: { dateTime: '2030-01-07T09:00:00', timeZone: 'UTC' }, end: { dateTime: '2030-01-07T10:00:00', timeZone: 'UTC' }, ...extra }, { ownerEmail: MICROSOFT_SELF_ADDRESS })!;
    const busy = (ics: string) => icsToBusy(ics, { ownerZone: 'UTC', ownerEmails: [MICROSOFT_SELF_ADDRESS], rangeStart: Date.UTC(2030, 0, 1), rangeEnd: Date.UTC(2030, 1, 1) }).intervals.length > 0;
    expect(busy(t({ showAs: 'free' }))).toBe(false);
    for (const showAs of ['tentative', 'busy', 'oof', 'workingElsewhere', 'unknown']) expect(busy(t({ showAs }))).toBe(true);
    expect(busy(t({ isCancelled: true }))).toBe(false);
    expect(busy(t({ responseStatus: { response: 'declined' } }))).toBe(false);
    for (const response of ['accepted', 'tentativelyAccepted', 'notResponded', 'none', 'organizer']) expect(busy(t({ responseStatus: { response } }))).toBe(true);
    expect(graphEventToIcs({ ...base, type: 'seriesMaster', start: { dateTime: '2030-01-07T09:00:00', timeZone: 'UTC' } }, { ownerEmail: '' })).toBeNull();
  });
});
