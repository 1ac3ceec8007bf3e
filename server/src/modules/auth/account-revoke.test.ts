/**
 * Issue 12 (4), the provider side of DELETE /api/me against the local Google and Microsoft fakes:
 * push channels are stopped and the Google grant revoked before the rows go; when the provider
 * cannot be reached the account is deleted all the same (best effort, logged).
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start as startGoogleFake, type GoogleCalendarFake } from '../../../test/fakes/google-calendar-fake.ts';
import { start as startGraphFake, type MicrosoftGraphFake } from '../../../test/fakes/microsoft-graph-fake.ts';
import { buildUser } from '../../../test/factories.ts';
import { connectThroughConsent, listen } from '../../../test/oauth-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let google: GoogleCalendarFake;
let graph: MicrosoftGraphFake;
let t: TestApp;
let http: { url: string; close(): Promise<void> };
beforeAll(async () => {
  google = await startGoogleFake({ autoApprove: true });
  graph = await startGraphFake({ autoApprove: true });
  graph.addCalendar('Calendar');
  t = await createTestApp({ env: { ...google.env, ...graph.env } });
  http = await listen(t);
});
afterAll(async () => {
  await http?.close();
  await t?.close();
  await google?.close();
  await graph?.close();
});

const PASSWORD = 'the password 1';
const rowsOfUser = async (userId: string) =>
  (await t.db.selectFrom('calendar_connections').select('id').where('user_id', '=', userId).execute()).length +
  (await t.db.selectFrom('push_channels').select('id').where('user_id', '=', userId).execute()).length +
  (await t.db.selectFrom('users').select('id').where('id', '=', userId).execute()).length;

describe('DELETE /api/me and the calendar providers', () => {
  it('stops the Google channel, revokes the Google grant and deletes the Graph subscription first', async () => {
    const owner = await buildUser(t, { password: PASSWORD });
    expect((await connectThroughConsent(t, owner.auth, 'google')).callback.status).toBe(200);
    expect((await connectThroughConsent(t, owner.auth, 'microsoft')).callback.status).toBe(200);
    const liveChannels = google.channels.filter((c) => !c.stopped);
    expect(liveChannels.length).toBeGreaterThan(0);
    expect(graph.subscriptions.length).toBeGreaterThan(0);
    const revokedBefore = google.revoked.length;

    await request(t.app).delete('/api/me').set(owner.auth).send({ password: PASSWORD }).expect(204);

    expect(liveChannels.every((c) => c.stopped)).toBe(true);
    expect(google.revoked.length).toBeGreaterThan(revokedBefore);
    expect(graph.subscriptions).toEqual([]);
    expect(await rowsOfUser(owner.user.id)).toBe(0);
  });

  it('a provider that cannot be reached does not keep the account', async () => {
    const owner = await buildUser(t, { password: PASSWORD });
    expect((await connectThroughConsent(t, owner.auth, 'google')).callback.status).toBe(200);
    expect(await rowsOfUser(owner.user.id)).toBeGreaterThan(1);
    await google.close(); // channel stop and revocation now fail (connection refused)

    await request(t.app).delete('/api/me').set(owner.auth).send({ password: PASSWORD }).expect(204);
    expect(await rowsOfUser(owner.user.id)).toBe(0);
    expect((await request(t.app).get('/api/me').set(owner.auth)).status).toBe(401);
  });
});
