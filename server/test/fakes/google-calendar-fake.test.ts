import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALENDAR_READONLY_SCOPE, start, type GoogleCalendarFake } from './google-calendar-fake.ts';
import { httpsRelayFor } from './push-relay.ts';

const REDIRECT = 'http://localhost:3000/api/oauth/google/callback';

describe('Google Calendar fake', () => {
  let fake: GoogleCalendarFake;
  let auto: GoogleCalendarFake;
  beforeAll(async () => {
    fake = await start({ calendarPageSize: 1 });
    auto = await start({ autoApprove: true });
  });
  afterAll(async () => {
    await fake.close();
    await auto.close();
  });

  const authUrl = (f: GoogleCalendarFake, over: Record<string, string> = {}) => {
    const verifier = randomBytes(32).toString('base64url');
    const u = new URL(f.env.GOOGLE_AUTH_URL);
    const params = {
      client_id: f.env.GOOGLE_CLIENT_ID,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: CALENDAR_READONLY_SCOPE,
      state: 'st',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      ...over,
    };
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return { url: u.href, verifier };
  };

  const tokenFor = async (f: GoogleCalendarFake): Promise<string> => {
    const { url, verifier } = authUrl(f);
    let res0 = await fetch(url, { redirect: 'manual' });
    if (res0.status === 200) {
      const allow = /id="allow" href="([^"]+)"/.exec(await res0.text())![1]!.replace(/&amp;/g, '&');
      res0 = await fetch(new URL(allow, f.url), { redirect: 'manual' });
    }
    const loc = new URL(res0.headers.get('location')!);
    const res = await fetch(f.env.GOOGLE_TOKEN_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: loc.searchParams.get('code')!,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: f.env.GOOGLE_CLIENT_ID,
        client_secret: f.env.GOOGLE_CLIENT_SECRET,
      }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };

  it('autoApprove redirects at once with code and state; the consent page can also deny', async () => {
    const res = await fetch(authUrl(auto).url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get('location')!);
    expect(loc.searchParams.get('state')).toBe('st');
    expect(loc.searchParams.get('code')).toBeTruthy();

    const page = await (await fetch(authUrl(fake).url)).text();
    const deny = /id="deny" href="([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, '&');
    const denied = await fetch(new URL(deny, fake.url), { redirect: 'manual' });
    expect(new URL(denied.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
  });

  it('refuses plain PKCE, unknown clients and extra scopes', async () => {
    expect((await fetch(authUrl(fake, { code_challenge_method: 'plain' }).url)).status).toBe(400);
    expect((await fetch(authUrl(fake, { client_id: 'nope' }).url)).status).toBe(400);
    expect((await fetch(authUrl(fake, { scope: `${CALENDAR_READONLY_SCOPE} https://www.googleapis.com/auth/calendar` }).url)).status).toBe(400);
  });

  it('answers the documented 401 and 410 bodies, pages the calendar list, 404s an unknown channel', async () => {
    const api = `${auto.env.GOOGLE_API_BASE_URL}/calendar/v3`;
    const noAuth = await fetch(`${api}/users/me/calendarList`);
    expect(noAuth.status).toBe(401);
    expect(((await noAuth.json()) as { error: { errors: Array<{ reason: string }> } }).error.errors[0]!.reason).toBe('authError');

    const token = await tokenFor(auto);
    const h = { authorization: `Bearer ${token}` };
    const cal = encodeURIComponent(auto.account);
    const full = (await (await fetch(`${api}/calendars/${cal}/events?showDeleted=true`, { headers: h })).json()) as { nextSyncToken: string };
    expect(full.nextSyncToken).toBeTruthy();
    auto.invalidateSyncTokens();
    const gone = await fetch(`${api}/calendars/${cal}/events?syncToken=${encodeURIComponent(full.nextSyncToken)}`, { headers: h });
    expect(gone.status).toBe(410);
    expect(await gone.json()).toEqual({
      error: {
        errors: [
          {
            domain: 'calendar',
            reason: 'fullSyncRequired',
            message: 'Sync token is no longer valid, a full sync is required.',
            locationType: 'parameter',
            location: 'syncToken',
          },
        ],
        code: 410,
        message: 'Sync token is no longer valid, a full sync is required.',
      },
    });

    const stop = await fetch(`${api}/channels/stop`, {
      method: 'POST',
      headers: { ...h, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'x', resourceId: 'y' }),
    });
    expect(stop.status).toBe(404);

    fake.addCalendar({ id: 'second@group.calendar.google.com' });
    const ft = await tokenFor(fake);
    const p1 = (await (await fetch(`${fake.env.GOOGLE_API_BASE_URL}/calendar/v3/users/me/calendarList`, { headers: { authorization: `Bearer ${ft}` } })).json()) as {
      items: unknown[];
      nextPageToken?: string;
    };
    expect(p1.items).toHaveLength(1);
    expect(p1.nextPageToken).toBeTruthy();
  });
  it('events.watch refuses an http:// address as Google does (400 push.webhookUrlNotHttps); https is delivered', async () => {
    const api = `${auto.env.GOOGLE_API_BASE_URL}/calendar/v3`;
    const h = { authorization: `Bearer ${await tokenFor(auto)}`, 'content-type': 'application/json' };
    const watch = (id: string, address: string) =>
      fetch(`${api}/calendars/${encodeURIComponent(auto.account)}/events/watch`, { method: 'POST', headers: h, body: JSON.stringify({ id, type: 'web_hook', address, token: 'tok' }) });

    const plain = await watch('plain-1', 'http://127.0.0.1:9/api/webhooks/google');
    expect(plain.status).toBe(400);
    expect(await plain.json()).toEqual({
      error: {
        errors: [{ domain: 'global', reason: 'push.webhookUrlNotHttps', message: 'WebHook callback must be HTTPS: http://127.0.0.1:9/api/webhooks/google' }],
        code: 400,
        message: 'WebHook callback must be HTTPS: http://127.0.0.1:9/api/webhooks/google',
      },
    });
    expect(auto.channels.some((c) => c.id === 'plain-1')).toBe(false);

    // An https address (here the test relay's, which reaches a local http receiver) is accepted and notified.
    const seen: string[] = [];
    const receiver = http.createServer((req, res) => {
      seen.push(`${req.url} ${req.headers['x-goog-resource-state']}`);
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const address = `${httpsRelayFor(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}`)}/api/webhooks/google`;
      const ok = await watch('secure-1', address);
      expect(ok.status).toBe(200);
      expect(auto.channels.find((c) => c.id === 'secure-1')!.address).toBe(address);
      expect(await auto.notify('secure-1', 'exists')).toBe(200);
      expect(seen).toContain('/api/webhooks/google exists');
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
});
