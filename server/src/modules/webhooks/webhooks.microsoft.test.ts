/**
 * Microsoft Outlook Calendar end to end against the local Graph fake
 * (server/test/fakes/microsoft-graph-fake.ts): validationToken echo, connect (the fake validates
 * the notification URL on the live app before creating the subscription), clientState checks,
 * a change reaching the public answer within 3 s, disconnect deleting the subscription.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start as startGraphFake, type MicrosoftGraphFake } from '../../../test/fakes/microsoft-graph-fake.ts';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { connectThroughConsent, listen, openAllWeek, publicWindows, sleep, utcDatePlus, waitFor } from '../../../test/oauth-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { decryptSecret, openContent } from '../../lib/crypto.ts';
import { sha256Hex } from '../../store/oauth.repo.ts';
import { isSyncScheduled } from '../sync/sync-queue.ts';

describe('Microsoft Outlook Calendar (Graph) against the fake', () => {
  let fake: MicrosoftGraphFake;
  let t: TestApp;
  let http: { url: string; close(): Promise<void> };
  let owner: BuiltUser;
  let calendarId = '';
  let connectionId = '';
  const day = utcDatePlus(2);
  const slug = `msft${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    fake = await startGraphFake({ autoApprove: true });
    calendarId = fake.addCalendar('Calendar');
    t = await createTestApp({ env: { ...fake.env } });
    http = await listen(t);
    owner = await buildUser(t, { username: slug, timezone: 'Europe/Brussels' });
    await openAllWeek(t, owner.user.id);
  });
  afterAll(async () => {
    await http?.close();
    await t?.close();
    await fake?.close();
  });

  it('echoes ?validationToken= as text/plain, exactly', async () => {
    const token = 'Validation: Testing client application reachability for subscription Request-Id: 1a2b <&>';
    const res = await request(t.app).post('/api/webhooks/microsoft').query({ validationToken: token }).set('Content-Type', 'text/plain').send('');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toBe(token);
  });

  it('connects through consent: encrypted tokens, events, one subscription on our webhook', async () => {
    fake.putEvent(calendarId, { subject: 'Quarterly review', start: `${day}T08:00:00Z`, end: `${day}T09:00:00Z` });
    const { callback } = await connectThroughConsent(t, owner.auth, 'microsoft');
    expect(callback.status).toBe(200);
    expect(callback.text).toContain('Microsoft Outlook Calendar connected. You can close this window.');
    const c = (await t.db.selectFrom('calendar_connections').selectAll().where('user_id', '=', owner.user.id).execute())[0]!;
    connectionId = c.id;
    expect(c).toMatchObject({ provider: 'microsoft', status: 'active' });
    // Name and account are stored sealed (issue 26).
    expect(openContent(c.name, t.config.AVAIL_SECRET_KEY)).toBe('Outlook Calendar');
    expect(openContent(c.account!, t.config.AVAIL_SECRET_KEY)).toBe('owner@contoso.example');
    const tokens = JSON.parse(decryptSecret(c.secret_enc!, t.config.AVAIL_SECRET_KEY));
    const raw = JSON.stringify(await t.db.selectFrom('calendar_connections').selectAll().execute());
    expect(raw).not.toContain(tokens.access_token);
    expect(raw).not.toContain(tokens.refresh_token);
    const events = await request(t.app).get('/api/me/calendar/events').query({ start_date: day, end_date: day }).set(owner.auth).expect(200);
    expect(events.body.events.map((e: { title: string }) => e.title)).toEqual(['Quarterly review']);
    expect(fake.subscriptions).toHaveLength(1);
    const sub = fake.subscriptions[0]!;
    expect(sub.notificationUrl).toBe(`${http.url}/api/webhooks/microsoft`);
    const rows = await t.db.selectFrom('push_channels').selectAll().where('connection_id', '=', c.id).execute();
    expect(rows.map((r) => [r.channel_id, r.token_hash])).toEqual([[sub.id, sha256Hex(sub.clientState!)]]);
  });

  it('ignores notifications with a bad clientState or an unknown subscription (202, nothing scheduled)', async () => {
    const sub = fake.subscriptions[0]!;
    const res = await request(t.app)
      .post('/api/webhooks/microsoft')
      .send({ value: [{ subscriptionId: sub.id, clientState: 'not-the-secret', changeType: 'updated' }, { subscriptionId: 'unknown', clientState: 'x' }, { junk: true }] });
    expect(res.status).toBe(202);
    expect(isSyncScheduled(t.db, connectionId)).toBe(false);
    const noState = await request(t.app).post('/api/webhooks/microsoft').send({ value: [{ subscriptionId: sub.id }] });
    expect(noState.status).toBe(202);
    expect(isSyncScheduled(t.db, connectionId)).toBe(false);
    const before = fake.log.length;
    await sleep(800);
    expect(fake.log.slice(before).filter((l) => l.includes('delta'))).toEqual([]);
  });

  it('a notification with the right clientState changes the public answer within 3 s', async () => {
    const sub = fake.subscriptions[0]!;
    const slot = `${day}T14:00:00Z`;
    expect((await publicWindows(t, slug, day)).some((w) => w.endsWith(`/${slot}`))).toBe(false);
    const id = fake.putEvent(calendarId, { subject: 'Dentist', start: slot, end: `${day}T15:00:00Z` });
    const sent = Date.now();
    expect(await fake.notify(sub.id, { changeType: 'created', eventId: id })).toBe(202);
    const answeredIn = Date.now() - sent;
    expect(answeredIn).toBeLessThan(1_500); // answered at once; generous for loaded CI
    const elapsed = await waitFor(async () => (await publicWindows(t, slug, day)).some((w) => w.endsWith(`/${slot}`)), 3_000);
    console.info(`[microsoft] notification → changed public answer: ${elapsed + answeredIn} ms`);
    expect(elapsed + answeredIn).toBeLessThan(3_000);
  });

  it('disconnect (by connection id) deletes the subscription at Graph and the cached events', async () => {
    await request(t.app).delete(`/api/me/calendar/connections/${connectionId}`).set(owner.auth).expect(200);
    expect(fake.subscriptions).toEqual([]);
    for (const table of ['calendar_connections', 'calendar_events', 'busy_intervals', 'push_channels'] as const) {
      expect(await t.db.selectFrom(table).select('user_id').where('user_id', '=', owner.user.id).execute(), table).toEqual([]);
    }
  });
});
