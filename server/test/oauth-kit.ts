/**
 * Helpers of the OAuth calendar tests: a listening test app (providers POST webhooks to it), the
 * consent walk through a fake's auto-approving authorize endpoint, availability rules, the public
 * answer, polling, and a small in-memory OAuth adapter for scheduling tests that need many
 * connections cheaply.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { OAuthCalendarProvider, OAuthProviderId, OAuthSyncResult, PushChannel } from '../src/providers/oauth-provider.ts';
import { httpsRelayFor } from './fakes/push-relay.ts';
import type { TestApp } from './test-app.ts';

/**
 * Listens on 127.0.0.1:0 and points WEBHOOK_BASE_URL at it through the fakes' TLS-terminating
 * relay (`url` = `https://push-relay-<port>.test`, see test/fakes/push-relay.ts), since Google only
 * delivers to https; `localUrl` is the plain http address the server listens on.
 */
export async function listen(t: TestApp): Promise<{ url: string; localUrl: string; close(): Promise<void> }> {
  const server = http.createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const localUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = httpsRelayFor(localUrl);
  t.config.WEBHOOK_BASE_URL = url;
  return {
    url,
    localUrl,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * POST connect → auth_url; GET it at the fake (auto-approve) → the redirect to our callback;
 * GET the callback path on the app. Returns the auth URL and the callback response.
 */
export async function connectThroughConsent(t: TestApp, auth: { Authorization: string }, provider: OAuthProviderId) {
  const start = await request(t.app).post(`/api/me/calendar/${provider}/connect`).set(auth);
  if (start.status !== 200) throw new Error(`connect answered ${start.status}: ${JSON.stringify(start.body)}`);
  const authUrl = new URL(start.body.auth_url);
  const consent = await fetch(authUrl, { redirect: 'manual' });
  const location = consent.headers.get('location');
  if (consent.status !== 302 || !location) throw new Error(`consent answered ${consent.status}`);
  const back = new URL(location);
  const callback = await request(t.app).get(back.pathname + back.search);
  return { authUrl, back, callback };
}

/** Weekly rules 00:00–23:59 every day, so busy time is the only thing cutting windows. */
export async function openAllWeek(t: TestApp, userId: string): Promise<void> {
  const now = t.clock.now();
  for (let weekday = 0; weekday < 7; weekday++) {
    await t.db
      .insertInto('availability_rules')
      .values({ id: crypto.randomUUID(), user_id: userId, weekday, start_time_local: '00:00', end_time_local: '23:59', created_at: now, updated_at: now })
      .execute();
  }
}

/** The public windows of `slug` on one date (YYYY-MM-DD, owner's zone), as 'start/end' strings. */
export async function publicWindows(t: TestApp, slug: string, date: string): Promise<string[]> {
  const res = await request(t.app).get(`/api/public/${slug}/availability`).query({ range: `${date}..${date}` });
  if (res.status !== 200) throw new Error(`public availability answered ${res.status}`);
  return res.body.availability.windows.map((w: { start: string; end: string }) => `${w.start}/${w.end}`);
}

/** Polls `probe` every 25 ms until it returns true; resolves with the elapsed ms, rejects after `timeoutMs`. */
export async function waitFor(probe: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A UTC date `days` after today, YYYY-MM-DD. */
export function utcDatePlus(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * In-memory OAuth adapter ('google' id by default): one calendar whose events are `events`
 * (ICS VEVENT bodies by uid); `fail` makes the next syncs throw; counts calls per connection secret.
 */
export function createMemoryAdapter(id: OAuthProviderId = 'google') {
  const events = new Map<string, { start: string; end: string }>();
  const calls: string[] = [];
  let fail: (() => Error) | null = null;
  let nextChannel = 0;
  const ics = (uid: string, e: { start: string; end: string }) =>
    ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//mem//EN', 'BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20300101T000000Z', `DTSTART:${e.start}`, `DTEND:${e.end}`, 'SUMMARY:Private', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
  const adapter: OAuthCalendarProvider = {
    id,
    unavailableReason: () => null,
    authorizationUrl: (_c, p) => `https://consent.example/?state=${p.state}&code_challenge=${p.codeChallenge}`,
    exchangeCode: async () => ({ tokens: { access_token: 'mem-access', refresh_token: 'mem-refresh', expires_at: Date.now() + 3_600_000 }, account: 'mem@example.com' }),
    async sync(_config, input): Promise<OAuthSyncResult> {
      calls.push(input.secret ?? '');
      if (fail) throw fail();
      return {
        notModified: false,
        upserts: [...events].map(([uid, e]) => ({ calendarUrl: 'primary', href: uid, etag: null, icsText: ics(uid, e) })),
        removals: input.known.filter((k) => !events.has(k.href)).map((k) => ({ calendarUrl: k.calendarUrl, href: k.href })),
        removedCalendars: [],
        calendarsCount: 1,
        newState: { calendarIds: ['primary'] },
        ownerEmails: [],
        calendarIds: ['primary'],
      };
    },
    startPush: async (_c, p) => ({
      channels: p.calendarIds.map((calendar_id): PushChannel => ({ channel_id: `mem-${++nextChannel}`, resource_id: null, calendar_id, token: `tok-${nextChannel}`, expires_at: Date.now() + 7 * 86_400_000 })),
    }),
    renewPush: async (_c, p) => ({ channel: { ...p.channel, expires_at: Date.now() + 7 * 86_400_000 } }),
    stopPush: async () => undefined,
    revoke: async () => undefined,
  };
  return {
    adapter,
    events,
    /** Secrets seen by sync(), one entry per call. */
    calls,
    failWith(f: (() => Error) | null) {
      fail = f;
    },
  };
}
