/**
 * The Microsoft adapter through the server's OAuth pipeline, end to end against the Graph fake:
 * connect → consent → callback → first sync (busy intervals) → Graph subscription (validation
 * handshake against the running app) → change notification → webhook-scheduled sync.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type MicrosoftGraphFake } from '../../../test/fakes/microsoft-graph-fake.ts';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { microsoftProvider } from './microsoft.provider.ts';
import { isSealed, openContent } from '../../lib/crypto.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('Microsoft Outlook Calendar through the OAuth pipeline', () => {
  let fake: MicrosoftGraphFake;
  let t: TestApp;
  let server: Server;
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.writeHead(503).end();
  let calendar: string;
  let monday: number;

  beforeAll(async () => {
    fake = await start();
    // Listen first so the webhook URL (Graph's notificationUrl) is known before the app is built.
    server = createServer((req, res) => handler(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    t = await createTestApp({ env: { ...fake.env, WEBHOOK_BASE_URL: `http://127.0.0.1:${port}` }, oauthProviders: { microsoft: microsoftProvider } });
    handler = t.app;
    const d = new Date(Date.now() + 7 * DAY);
    d.setUTCHours(9, 0, 0, 0);
    while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1);
    monday = d.getTime();
    calendar = fake.addCalendar('Calendar');
    fake.putEvent(calendar, { subject: 'Board meeting', start: iso(monday), end: iso(monday + HOUR) });
    fake.putEvent(calendar, { subject: 'Lunch (free)', start: iso(monday + 3 * HOUR), end: iso(monday + 4 * HOUR), showAs: 'free' });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((r) => server.close(() => r()));
    await fake?.close();
  });

  it('connects, syncs busy time, subscribes, and re-syncs on a change notification', async () => {
    const owner = await buildUser(t);
    const connect = await request(t.app).post('/api/me/calendar/microsoft/connect').set(owner.auth).send();
    expect(connect.status).toBe(200);
    const authUrl = connect.body.auth_url as string;
    expect(authUrl.startsWith(`${fake.url}/common/oauth2/v2.0/authorize?`)).toBe(true);

    const page = await fetch(authUrl, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const href = /<a id="accept" href="([^"]+)"/.exec(await page.text())![1]!;
    const back = await fetch(new URL(href, authUrl), { redirect: 'manual' });
    const callback = new URL(back.headers.get('location')!);
    expect(callback.pathname).toBe('/api/oauth/microsoft/callback');

    const done = await request(t.app).get(`${callback.pathname}${callback.search}`);
    expect(done.status).toBe(200);
    expect(done.text).toContain('Microsoft Outlook Calendar connected');

    const conn = await t.db.selectFrom('calendar_connections').selectAll().where('user_id', '=', owner.user.id).executeTakeFirstOrThrow();
    expect(conn.provider).toBe('microsoft');
    expect(conn.status).toBe('active');
    // The account is stored sealed (issue 26).
    expect(isSealed(conn.account!)).toBe(true);
    expect(openContent(conn.account!, t.config.AVAIL_SECRET_KEY)).toBe('owner@contoso.example');
    expect(conn.calendars_count).toBe(1);
    const busy = async () =>
      (await t.db.selectFrom('busy_intervals').select(['start_ms', 'end_ms']).where('user_id', '=', owner.user.id).orderBy('start_ms').execute()).map(
        (r) => [Number(r.start_ms), Number(r.end_ms)],
      );
    expect(await busy()).toEqual([[monday, monday + HOUR]]); // the free lunch is not busy

    const channels = await t.db.selectFrom('push_channels').selectAll().where('connection_id', '=', conn.id).execute();
    expect(channels).toHaveLength(1);
    expect(fake.subscriptions.map((s) => s.id)).toEqual([channels[0]!.channel_id]);
    expect(fake.subscriptions[0]!.notificationUrl).toMatch(/\/api\/webhooks\/microsoft$/);

    fake.putEvent(calendar, { subject: 'New 1:1', start: iso(monday + DAY), end: iso(monday + DAY + HOUR) });
    expect(await fake.notify(channels[0]!.channel_id, { changeType: 'created' })).toBe(202);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await busy()).length < 2) await new Promise((r) => setTimeout(r, 100));
    expect(await busy()).toEqual([
      [monday, monday + HOUR],
      [monday + DAY, monday + DAY + HOUR],
    ]);

    const disconnect = await request(t.app).delete('/api/me/calendar/microsoft/disconnect').set(owner.auth);
    expect(disconnect.status).toBeLessThan(300);
    expect(fake.subscriptions).toEqual([]);
  });
});
