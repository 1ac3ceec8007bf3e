/**
 * Google Calendar end to end against the local fake (server/test/fakes/google-calendar-fake.ts):
 * connect → consent → callback (encrypted tokens, events, push channel), webhooks (bad token,
 * unknown channel, sync message, a real change reaching the public answer within 3 s), disconnect.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start as startGoogleFake, type GoogleCalendarFake } from '../../../test/fakes/google-calendar-fake.ts';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { connectThroughConsent, listen, openAllWeek, publicWindows, sleep, utcDatePlus, waitFor } from '../../../test/oauth-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { decryptSecret } from '../../lib/crypto.ts';
import { openConnectionTexts } from '../../store/calendars.repo.ts';
import { isSyncScheduled } from '../sync/sync-queue.ts';
import { pkceChallenge } from './oauth.service.ts';
import { sha256Hex } from '../../store/oauth.repo.ts';

describe('Google Calendar (OAuth, webhooks, disconnect) against the fake', () => {
  let fake: GoogleCalendarFake;
  let t: TestApp;
  let http: { url: string; close(): Promise<void> };
  let owner: BuiltUser;
  const day = utcDatePlus(2);
  const slug = `goog${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    fake = await startGoogleFake({ autoApprove: true });
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

  it('connect answers an auth_url with a fresh state and a PKCE S256 challenge; the state is stored only hashed', async () => {
    const res = await request(t.app).post('/api/me/calendar/google/connect').set(owner.auth).expect(200);
    expect(Object.keys(res.body)).toEqual(['auth_url']);
    const u = new URL(res.body.auth_url);
    expect(u.origin + u.pathname).toBe(fake.env.GOOGLE_AUTH_URL);
    const state = u.searchParams.get('state')!;
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(u.searchParams.get('redirect_uri')).toBe('http://avail.test/api/oauth/google/callback');
    const row = await t.db.selectFrom('oauth_states').selectAll().where('state_hash', '=', sha256Hex(state)).executeTakeFirstOrThrow();
    expect(row.user_id).toBe(owner.user.id);
    expect(row.provider).toBe('google');
    const verifier = decryptSecret(row.code_verifier_enc, t.config.AVAIL_SECRET_KEY);
    expect(pkceChallenge(verifier)).toBe(u.searchParams.get('code_challenge'));
    expect(JSON.stringify(await t.db.selectFrom('oauth_states').selectAll().execute())).not.toContain(state);
    const second = await request(t.app).post('/api/me/calendar/google/connect').set(owner.auth).expect(200);
    expect(new URL(second.body.auth_url).searchParams.get('state')).not.toBe(state);
    await request(t.app).post('/api/me/calendar/google/connect').expect(401);
    for (let i = 0; i < 12; i++) await request(t.app).post('/api/me/calendar/google/connect').set(owner.auth).expect(200);
    const open = await t.db.selectFrom('oauth_states').select('state_hash').where('user_id', '=', owner.user.id).execute();
    expect(open).toHaveLength(10); // oldest consents beyond 10 are dropped
  });

  it('access_denied and unknown states end on the failure page and store nothing', async () => {
    const res = await request(t.app).post('/api/me/calendar/google/connect').set(owner.auth).expect(200);
    const state = new URL(res.body.auth_url).searchParams.get('state')!;
    const denied = await request(t.app).get('/api/oauth/google/callback').query({ error: 'access_denied', state });
    expect(denied.status).toBe(400);
    expect(denied.headers['content-type']).toMatch(/^text\/html/);
    expect(denied.text).toContain('Failed to connect Google Calendar. Please try again.');
    expect(denied.text).toContain('window.close()');
    expect(denied.text).toContain('{"type":"avail-oauth","provider":"google","ok":false}');
    expect(await t.db.selectFrom('oauth_states').select('state_hash').where('state_hash', '=', sha256Hex(state)).executeTakeFirst()).toBeUndefined();
    const forged = await request(t.app).get('/api/oauth/google/callback').query({ code: 'x', state: 'not-a-state' });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('Failed to connect Google Calendar. Please try again.');
    expect(await t.db.selectFrom('calendar_connections').select('id').where('user_id', '=', owner.user.id).execute()).toEqual([]);
  });

  it('a state older than 10 minutes is refused', async () => {
    const res = await request(t.app).post('/api/me/calendar/google/connect').set(owner.auth).expect(200);
    const state = new URL(res.body.auth_url).searchParams.get('state')!;
    await t.db.updateTable('oauth_states').set({ created_at: Date.now() - 10 * 60_000 - 1 }).where('state_hash', '=', sha256Hex(state)).execute();
    const late = await request(t.app).get('/api/oauth/google/callback').query({ code: 'whatever', state });
    expect(late.status).toBe(400);
  });

  let connectionId = '';

  it('the callback creates the connection (tokens encrypted), syncs events and opens a push channel; the state is single use', async () => {
    fake.putEvent(fake.account, { id: 'evt1', summary: 'Secret board meeting', start: { dateTime: `${day}T08:00:00Z` }, end: { dateTime: `${day}T09:00:00Z` } });
    const { callback, back } = await connectThroughConsent(t, owner.auth, 'google');
    expect(callback.status).toBe(200);
    expect(callback.headers['content-type']).toMatch(/^text\/html/);
    expect(callback.text).toContain('Google Calendar connected. You can close this window.');
    expect(callback.text).toContain('window.close()');
    expect(callback.text).toContain('postMessage({"type":"avail-oauth","provider":"google","ok":true},window.location.origin)');
    // The inline script runs under this response's CSP nonce, and only it.
    const nonce = /<script nonce="([^"]+)">/.exec(callback.text)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(callback.headers['content-security-policy']).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(callback.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    const conns = await t.db.selectFrom('calendar_connections').selectAll().where('user_id', '=', owner.user.id).execute();
    expect(conns).toHaveLength(1);
    const c = openConnectionTexts(conns[0]!, t.config.AVAIL_SECRET_KEY); // name and account sealed at rest (issue 26)
    connectionId = c.id;
    expect(c).toMatchObject({ provider: 'google', name: 'Google Calendar', status: 'active', account: fake.account, last_error: null });
    const tokens = JSON.parse(decryptSecret(c.secret_enc!, t.config.AVAIL_SECRET_KEY));
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.refresh_token).toBeTruthy();
    const raw = JSON.stringify(await t.db.selectFrom('calendar_connections').selectAll().execute());
    expect(raw).not.toContain(tokens.access_token);
    expect(raw).not.toContain(tokens.refresh_token);

    const events = await request(t.app).get('/api/me/calendar/events').query({ start_date: day, end_date: day }).set(owner.auth).expect(200);
    expect(events.body.events.map((e: { title: string; provider: string }) => [e.title, e.provider])).toEqual([['Secret board meeting', 'google']]);
    const windows = await publicWindows(t, slug, day);
    expect(windows.some((w) => w.endsWith(`/${day}T08:00:00Z`))).toBe(true); // busy 08:00–09:00 UTC cuts the day
    expect(windows.some((w) => w.startsWith(`${day}T09:00:00Z/`))).toBe(true);

    const list = await request(t.app).get('/api/me/calendar/connections').set(owner.auth).expect(200);
    expect(list.body.connections[0]).toMatchObject({ provider: 'google', status: 'active', calendars_count: 1 });
    expect(JSON.stringify(list.body)).not.toContain(tokens.access_token);

    const channels = await t.db.selectFrom('push_channels').selectAll().where('connection_id', '=', c.id).execute();
    expect(channels).toHaveLength(1);
    const live = fake.channels.filter((ch) => !ch.stopped);
    expect(live).toHaveLength(1);
    expect(live[0]!.address).toBe(`${http.url}/api/webhooks/google`);
    expect(channels[0]!.channel_id).toBe(live[0]!.id);
    expect(channels[0]!.token_hash).toBe(sha256Hex(live[0]!.token!));
    expect(JSON.stringify(channels)).not.toContain(live[0]!.token!);

    const replay = await request(t.app).get(back.pathname + back.search);
    expect(replay.status).toBe(400);
    expect(replay.text).toContain('Failed to connect Google Calendar');
  });

  it('webhook: bad token → 401 and nothing scheduled; unknown channel → 200; sync message → 200 no-op', async () => {
    const ch = fake.channels.find((c) => !c.stopped)!;
    const before = fake.requests.length;
    const bad = await request(t.app)
      .post('/api/webhooks/google')
      .set({ 'X-Goog-Channel-ID': ch.id, 'X-Goog-Channel-Token': 'wrong-token', 'X-Goog-Resource-State': 'exists', 'X-Goog-Resource-ID': ch.resourceId });
    expect(bad.status).toBe(401);
    const missing = await request(t.app).post('/api/webhooks/google').set({ 'X-Goog-Channel-ID': ch.id, 'X-Goog-Resource-State': 'exists' });
    expect(missing.status).toBe(401);
    expect(isSyncScheduled(t.db, connectionId)).toBe(false);
    const unknown = await request(t.app).post('/api/webhooks/google').set({ 'X-Goog-Channel-ID': 'no-such-channel', 'X-Goog-Channel-Token': 'x', 'X-Goog-Resource-State': 'exists' });
    expect(unknown.status).toBe(200);
    expect(await fake.notify(ch.id, 'sync')).toBe(200);
    expect(isSyncScheduled(t.db, connectionId)).toBe(false);
    await sleep(800);
    expect(fake.requests.slice(before).filter((r) => r.path.includes('/events'))).toEqual([]);
  });

  it('webhook with the right token: an event added at Google reaches the public answer within 3 s', async () => {
    const ch = fake.channels.find((c) => !c.stopped)!;
    const slot = `${day}T13:00:00Z`;
    expect((await publicWindows(t, slug, day)).some((w) => w.includes(slot))).toBe(false); // 13:00 is inside a window
    fake.putEvent(fake.account, { id: 'evt2', summary: 'Dentist', start: { dateTime: slot }, end: { dateTime: `${day}T14:00:00Z` } });
    const sent = Date.now();
    expect(await fake.notify(ch.id, 'exists')).toBe(200);
    const answeredIn = Date.now() - sent;
    expect(answeredIn).toBeLessThan(1_500); // answered at once (the sync runs after the 500 ms debounce); generous for loaded CI
    const elapsed = await waitFor(async () => (await publicWindows(t, slug, day)).some((w) => w.endsWith(`/${slot}`)), 3_000);
    console.info(`[google] notification → changed public answer: ${elapsed + answeredIn} ms`);
    expect(elapsed + answeredIn).toBeLessThan(3_000);
  });

  it('a burst of notifications is one sync', async () => {
    const ch = fake.channels.find((c) => !c.stopped)!;
    const before = fake.requests.filter((r) => r.path.endsWith('/events')).length;
    await Promise.all([fake.notify(ch.id), fake.notify(ch.id), fake.notify(ch.id), fake.notify(ch.id)]);
    await sleep(1_200);
    const lists = fake.requests.filter((r) => r.path.endsWith('/events')).length - before;
    expect(lists).toBe(1); // one calendar, one incremental events.list
  });

  it('disconnect stops the channel at Google, revokes the grant and deletes the events', async () => {
    const res = await request(t.app).delete('/api/me/calendar/google/disconnect').set(owner.auth);
    expect(res.status).toBe(200);
    expect(fake.channels.every((c) => c.stopped)).toBe(true);
    expect(fake.revoked.length).toBeGreaterThan(0);
    for (const table of ['calendar_connections', 'calendar_events', 'busy_intervals', 'push_channels'] as const) {
      const n = await t.db.selectFrom(table).select('user_id').where('user_id', '=', owner.user.id).execute();
      expect(n, table).toEqual([]);
    }
    const tomb = await t.db.selectFrom('replication_tombstones').select('collection').where('user_id', '=', owner.user.id).where('id', '=', connectionId).execute();
    expect(tomb).toEqual([{ collection: 'calendar_connections' }]);
    expect((await publicWindows(t, slug, day)).length).toBe(1); // the whole day is free again
    await request(t.app).delete('/api/me/calendar/google/disconnect').set(owner.auth).expect(404);
  });
});

describe('OAuth providers endpoint', () => {
  it('shows Google and Microsoft unavailable with the reason when their env is unset; Apple always available', async () => {
    const t = await createTestApp();
    try {
      const owner = await buildUser(t);
      const res = await request(t.app).get('/api/me/calendar/providers').set(owner.auth).expect(200);
      expect(res.body).toEqual({
        providers: {
          google: { available: false, reason: 'Google Calendar is not configured on this server.' },
          microsoft: { available: false, reason: 'Microsoft Outlook Calendar is not configured on this server.' },
          apple: { available: true, reason: null },
        },
      });
      await request(t.app).get('/api/me/calendar/providers').expect(401);
      const g = await request(t.app).post('/api/me/calendar/google/connect').set(owner.auth);
      expect(g.status).toBe(503);
      expect(g.body).toEqual({ error: 'Google Calendar is not configured on this server.', code: 'provider_unavailable' });
    } finally {
      await t.close();
    }
  });

  it('shows a configured provider as available', async () => {
    const t = await createTestApp({ env: { GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 's', MICROSOFT_CLIENT_ID: 'm', MICROSOFT_CLIENT_SECRET: 's' } });
    try {
      const owner = await buildUser(t);
      const res = await request(t.app).get('/api/me/calendar/providers').set(owner.auth).expect(200);
      expect(res.body.providers.google).toEqual({ available: true, reason: null });
      expect(res.body.providers.microsoft).toEqual({ available: true, reason: null });
    } finally {
      await t.close();
    }
  });
});
