/**
 * Issue 12 (6): Microsoft Graph lifecycle notifications against the local Graph fake
 * (https://learn.microsoft.com/graph/change-notifications-lifecycle-events): the lifecycle URL is
 * given and validated at subscription time; `missed` schedules a sync, `reauthorizationRequired`
 * renews the subscription now, `subscriptionRemoved` opens a new one; a bad clientState changes
 * nothing.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start as startGraphFake, type MicrosoftGraphFake } from '../../../test/fakes/microsoft-graph-fake.ts';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { connectThroughConsent, listen, waitFor } from '../../../test/oauth-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { cancelScheduledSync, finishedScheduledSyncs, isSyncScheduled } from '../sync/sync-queue.ts';

describe('Microsoft Graph lifecycle notifications', () => {
  let fake: MicrosoftGraphFake;
  let t: TestApp;
  let http: { url: string; close(): Promise<void> };
  let owner: BuiltUser;
  let connectionId = '';

  beforeAll(async () => {
    fake = await startGraphFake({ autoApprove: true });
    fake.addCalendar('Calendar');
    t = await createTestApp({ env: { ...fake.env } });
    http = await listen(t);
    owner = await buildUser(t, { timezone: 'UTC' });
    const { callback } = await connectThroughConsent(t, owner.auth, 'microsoft');
    expect(callback.status).toBe(200);
    connectionId = (await t.db.selectFrom('calendar_connections').select('id').where('user_id', '=', owner.user.id).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await http?.close();
    await t?.close();
    await fake?.close();
  });

  const channels = () => t.db.selectFrom('push_channels').selectAll().where('connection_id', '=', connectionId).where('opening_until', 'is', null).execute(); // open channels, not claims being opened

  it('subscriptions carry our lifecycle URL, which answers the validation handshake', async () => {
    expect(fake.subscriptions).toHaveLength(1);
    expect(fake.subscriptions[0]!.lifecycleNotificationUrl).toBe(`${http.url}/api/webhooks/microsoft/lifecycle`);
    const res = await request(t.app).post('/api/webhooks/microsoft/lifecycle').query({ validationToken: 'abc <&>' }).send('');
    expect(res.status).toBe(200);
    expect(res.text).toBe('abc <&>');
  });

  it('missed → a sync of the connection is scheduled; a bad clientState → nothing', async () => {
    cancelScheduledSync(t.db, connectionId);
    const sub = fake.subscriptions[0]!;
    expect(await fake.lifecycle(sub.id, 'missed', { clientState: 'not-the-secret' })).toBe(202);
    expect(isSyncScheduled(t.db, connectionId)).toBe(false);
    expect(await fake.lifecycle(sub.id, 'missed')).toBe(202);
    expect(isSyncScheduled(t.db, connectionId)).toBe(true);
  });

  it('reauthorizationRequired → the subscription is renewed now (new expiry, same subscription)', async () => {
    const sub = fake.subscriptions[0]!;
    const [before] = await channels();
    // Make the stored expiry look older so the renewal is visible.
    await t.db.updateTable('push_channels').set({ expires_at: Date.now() + 60_000 }).where('id', '=', before!.id).execute();
    const patches = () => fake.log.filter((l) => l === `PATCH /v1.0/subscriptions/${sub.id}`).length;
    const patchesBefore = patches();
    expect(await fake.lifecycle(sub.id, 'reauthorizationRequired')).toBe(202);
    await waitFor(async () => Number((await channels())[0]!.expires_at) > Date.now() + 3_600_000, 5_000);
    const [after] = await channels();
    expect(after!.channel_id).toBe(sub.id);
    // Reauthorized by PATCHing the subscription's expiration at Graph, which the fake now holds.
    expect(patches()).toBe(patchesBefore + 1);
    expect(Date.parse(fake.subscriptions[0]!.expirationDateTime)).toBe(Number(after!.expires_at));
  });

  it('subscriptionRemoved with a bad clientState → nothing; with the right one → a new subscription and a sync of the connection', async () => {
    const removed = fake.subscriptions[0]!;
    cancelScheduledSync(t.db, connectionId);
    const syncsBefore = finishedScheduledSyncs(t.db).filter((o) => o.connectionId === connectionId).length;
    const deltaCalls = () => fake.log.filter((l) => l.includes('/calendarView/delta')).length;
    const deltaBefore = deltaCalls();

    // A forged event (wrong clientState) must not make us drop and re-create the subscription.
    const forged = await request(t.app)
      .post('/api/webhooks/microsoft/lifecycle')
      .send({ value: [{ subscriptionId: removed.id, clientState: 'forged', lifecycleEvent: 'subscriptionRemoved' }] });
    expect(forged.status).toBe(202);
    await new Promise((r) => setImmediate(r));
    expect(isSyncScheduled(t.db, connectionId)).toBe(false);
    expect((await channels()).map((c) => c.channel_id)).toEqual([removed.id]);
    expect(fake.subscriptions.map((x) => x.id)).toEqual([removed.id]);

    expect(await fake.lifecycle(removed.id, 'subscriptionRemoved')).toBe(202);
    await waitFor(async () => {
      const rows = await channels();
      return rows.length === 1 && rows[0]!.channel_id !== removed.id;
    }, 5_000);
    expect(fake.subscriptions.map((s) => s.id)).toEqual([(await channels())[0]!.channel_id]);
    // The sync that follows (changes may have been missed while no subscription existed) ran against Graph.
    await waitFor(() => finishedScheduledSyncs(t.db).filter((o) => o.connectionId === connectionId).length > syncsBefore, 10_000);
    expect(finishedScheduledSyncs(t.db).filter((o) => o.connectionId === connectionId).at(-1)).toMatchObject({ ok: true });
    expect(deltaCalls()).toBeGreaterThan(deltaBefore);
  });
});
