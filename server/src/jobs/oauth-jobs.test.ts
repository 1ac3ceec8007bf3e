/**
 * Background work for OAuth connections, on the fake clock (t.clock; no real waiting for
 * intervals): push-channel renewal and re-creation (Google fake), the backup sync's spreading over
 * 15 one-minute slots, back-off (Retry-After from the Google fake; exponential; expired = never),
 * and the DB sync lease.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start as startGoogleFake, type GoogleCalendarFake } from '../../test/fakes/google-calendar-fake.ts';
import { buildUser } from '../../test/factories.ts';
import { connectThroughConsent, createMemoryAdapter, listen, sleep, waitFor } from '../../test/oauth-kit.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { encryptSecret } from '../lib/crypto.ts';
import { sha256Hex } from '../store/oauth.repo.ts';
import { finishedScheduledSyncs, isSyncScheduled, scheduleSync } from '../modules/sync/sync-queue.ts';
import { acquireSyncLease, releaseSyncLease, SYNC_LEASE_MS } from '../modules/sync/sync-lease.repo.ts';
import { SYNC_BACKOFF_MAX_MS, syncConnection } from '../modules/sync/sync.service.ts';
import { ProviderAuthError, ProviderError } from '../providers/provider.ts';
import type { RenewalCounts } from '../modules/oauth/push.service.ts';
import { backupSlotOf, backupSyncJob, type BackupSyncCounts } from './backup-sync.job.ts';
import { pushChannelsJob } from './push-channels.job.ts';

const ctx = { isStopping: () => false };
let current: TestApp;
const runPush = () => pushChannelsJob().run(current.deps, ctx) as Promise<RenewalCounts>;
const runBackup = () => backupSyncJob().run(current.deps, ctx) as Promise<BackupSyncCounts>;
const MIN = 60_000;
const DAY = 86_400_000;

describe('push channels and back-off with the Google fake', () => {
  let fake: GoogleCalendarFake;
  let t: TestApp;
  let http: { url: string; close(): Promise<void> };
  let connectionId = '';

  beforeAll(async () => {
    fake = await startGoogleFake({ autoApprove: true });
    t = current = await createTestApp({ env: { ...fake.env } });
    http = await listen(t);
    const owner = await buildUser(t);
    const { callback } = await connectThroughConsent(t, owner.auth, 'google');
    expect(callback.status).toBe(200);
    connectionId = (await t.db.selectFrom('calendar_connections').select('id').where('user_id', '=', owner.user.id).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await http?.close();
    await t?.close();
    await fake?.close();
  });

  it('renews a channel expiring within 24 h (new watch, old one stopped) and leaves fresh ones alone', async () => {
    const before = await t.db.selectFrom('push_channels').selectAll().where('connection_id', '=', connectionId).executeTakeFirstOrThrow();
    t.clock.set(Date.now());
    expect(await runPush()).toEqual({ renewed: 0, failed: 0, dropped: 0, opened: 0 });

    t.clock.set(Number(before.expires_at) - 20 * 60 * MIN); // 20 h before it expires
    const counts = await runPush();
    expect(counts).toMatchObject({ renewed: 1, failed: 0 });
    const after = await t.db.selectFrom('push_channels').selectAll().where('connection_id', '=', connectionId).execute();
    expect(after).toHaveLength(1);
    expect(after[0]!.channel_id).not.toBe(before.channel_id);
    const old = fake.channels.find((c) => c.id === before.channel_id)!;
    const renewed = fake.channels.find((c) => c.id === after[0]!.channel_id)!;
    expect(old.stopped).toBe(true);
    expect(renewed.stopped).toBe(false);
    expect(after[0]!.token_hash).toBe(sha256Hex(renewed.token!));
    // The old channel is unknown now; the new one is accepted.
    expect(await request(t.app).post('/api/webhooks/google').set({ 'X-Goog-Channel-ID': before.channel_id, 'X-Goog-Channel-Token': 'x', 'X-Goog-Resource-State': 'exists' }).then((r) => r.status)).toBe(200);
    expect(await fake.notify(renewed.id, 'sync')).toBe(200);
    t.clock.reset();
  });

  it('stops instead of renewing the channel of a calendar that left the account', async () => {
    const row = await t.db.selectFrom('push_channels').selectAll().where('connection_id', '=', connectionId).executeTakeFirstOrThrow();
    const conn = await t.db.selectFrom('calendar_connections').select('sync_state_json').where('id', '=', connectionId).executeTakeFirstOrThrow();
    const state = JSON.parse(conn.sync_state_json!);
    await t.db.updateTable('calendar_connections').set({ sync_state_json: JSON.stringify({ ...state, calendarIds: [] }) }).where('id', '=', connectionId).execute();
    t.clock.set(Number(row.expires_at) - 60 * MIN);
    expect(await runPush()).toMatchObject({ renewed: 0, dropped: 1, opened: 0 });
    expect(fake.channels.find((c) => c.id === row.channel_id)?.stopped).toBe(true);
    expect(await t.db.selectFrom('push_channels').select('id').where('connection_id', '=', connectionId).execute()).toEqual([]);
    await t.db.updateTable('calendar_connections').set({ sync_state_json: conn.sync_state_json }).where('id', '=', connectionId).execute();
    t.clock.reset();
  });

  it('re-creates missing channels for active connections, not for expired ones', async () => {
    await t.db.deleteFrom('push_channels').where('connection_id', '=', connectionId).execute();
    await t.db.updateTable('calendar_connections').set({ status: 'expired' }).where('id', '=', connectionId).execute();
    expect((await runPush()).opened).toBe(0);
    await t.db.updateTable('calendar_connections').set({ status: 'active' }).where('id', '=', connectionId).execute();
    expect((await runPush()).opened).toBe(1);
    const rows = await t.db.selectFrom('push_channels').select('channel_id').where('connection_id', '=', connectionId).execute();
    expect(rows).toHaveLength(1);
    expect(fake.channels.find((c) => c.id === rows[0]!.channel_id)?.stopped).toBe(false);
  });

  it('a 429 with Retry-After: 120 defers the connection 120 s on the fake clock, then it syncs again', async () => {
    const T = Date.parse('2030-01-07T12:00:30Z');
    t.clock.set(T);
    fake.failNext(429, { 'Retry-After': '120' });
    const outcome = await syncConnection(t.deps, connectionId);
    expect(outcome.ok).toBe(false);
    expect(outcome.nextSyncAt).toBe(T + 120_000);
    let row = await t.db.selectFrom('calendar_connections').selectAll().where('id', '=', connectionId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'error', failure_count: 1, next_sync_at: T + 120_000 });
    expect(row.last_error).toBeTruthy();

    const apiCalls = () => fake.requests.filter((r) => r.path.startsWith('/calendar/v3')).length;
    const n = apiCalls();
    t.clock.set(T + 60_000);
    expect((await runBackup()).total).toBe(0);
    t.clock.set(T + 119_999);
    expect((await runBackup()).total).toBe(0);
    expect(apiCalls()).toBe(n);
    t.clock.set(T + 120_000);
    expect(await runBackup()).toMatchObject({ total: 1, failed: 0 });
    expect(apiCalls()).toBeGreaterThan(n);
    row = await t.db.selectFrom('calendar_connections').selectAll().where('id', '=', connectionId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'active', failure_count: 0, next_sync_at: null, last_error: null, last_synced_at: T + 120_000 });
    t.clock.reset();
  });
  it('a refused authorization while opening channels shows the connection as expired with the reconnect message', async () => {
    await t.db.deleteFrom('push_channels').where('connection_id', '=', connectionId).execute();
    // Google answers 401 to the watch; the refresh that follows is refused (the grant was revoked).
    fake.revokeRefreshToken();
    fake.failNext(401, {}, { where: 'api', body: { error: { code: 401, message: 'Invalid Credentials' } } });
    expect((await runPush()).opened).toBe(0);
    const row = await t.db.selectFrom('calendar_connections').selectAll().where('id', '=', connectionId).executeTakeFirstOrThrow();
    expect(row.status).toBe('expired');
    expect(row.last_error).toMatch(/reconnect/i);
    expect(row.next_sync_at).toBeNull();
  });
});

describe('Google push needs an https webhook address', () => {
  it('with an http WEBHOOK_BASE_URL no channel is opened (the fake would refuse it), the log says so once, and the calendar still syncs', async () => {
    const fake = await startGoogleFake({ autoApprove: true });
    const lines: string[] = [];
    const t = (current = await createTestApp({ env: { ...fake.env, WEBHOOK_BASE_URL: 'http://avail.test' }, logStream: { write: (l) => void lines.push(l) } }));
    try {
      const owner = await buildUser(t);
      const { callback } = await connectThroughConsent(t, owner.auth, 'google');
      expect(callback.status).toBe(200);
      const conn = await t.db.selectFrom('calendar_connections').selectAll().where('user_id', '=', owner.user.id).executeTakeFirstOrThrow();
      expect(conn).toMatchObject({ status: 'active', last_error: null });
      expect(conn.last_synced_at).not.toBeNull();
      expect((await runPush()).opened).toBe(0);
      expect((await runPush()).opened).toBe(0);
      expect(await t.db.selectFrom('push_channels').select('id').where('connection_id', '=', conn.id).execute()).toEqual([]);
      expect(fake.requests.filter((r) => r.path.endsWith('/events/watch'))).toEqual([]);
      const notes = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => /only to https/.test(l.msg));
      expect(notes).toHaveLength(1);
      expect(notes[0]!.level).toBe(40); // warn
      expect(notes[0]!.msg).toMatch(/15-minute backup sync/);

      // The same server with an https base opens the channel at the next upkeep.
      t.config.WEBHOOK_BASE_URL = 'https://hooks.avail.test';
      expect((await runPush()).opened).toBe(1);
      expect(fake.channels.filter((c) => !c.stopped).map((c) => c.address)).toEqual(['https://hooks.avail.test/api/webhooks/google']);
    } finally {
      await t.close();
      await fake.close();
    }
  });
});

describe('backup sync spreading, exponential back-off and the sync lease (memory adapter)', () => {
  const mem = createMemoryAdapter('google');
  let t: TestApp;
  let userId = '';
  const T0 = Date.parse('2030-01-07T12:00:00Z'); // on a 15-minute boundary

  beforeAll(async () => {
    t = current = await createTestApp({ oauthProviders: { google: mem.adapter } });
    userId = (await buildUser(t)).user.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function addConnection(lastSyncedAt: number | null): Promise<string> {
    const id = crypto.randomUUID();
    await t.db
      .insertInto('calendar_connections')
      .values({
        id,
        user_id: userId,
        provider: 'google',
        name: 'Google Calendar',
        status: 'active',
        account: 'mem@example.com',
        config_json: '{}',
        secret_enc: encryptSecret(JSON.stringify({ access_token: id, refresh_token: 'r', expires_at: 0 }), t.config.AVAIL_SECRET_KEY),
        sync_state_json: null,
        warnings_json: null,
        last_error: null,
        last_synced_at: lastSyncedAt,
        connected_at: T0,
        updated_at: T0,
        next_sync_at: null,
        sync_lease_until: null,
        sync_lease_owner: null,
      })
      .execute();
    return id;
  }
  const tokenOf = (secret: string) => JSON.parse(secret).access_token as string;

  it('syncs each connection once per 15 minutes, in its own one-minute slot, never all at once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await addConnection(T0));
    const when = new Map<string, number[]>();
    const perTick: number[] = [];
    for (let m = 1; m <= 30; m++) {
      t.clock.set(T0 + m * MIN);
      const seen = mem.calls.length;
      const counts = await runBackup();
      perTick.push(counts.total);
      for (const secret of mem.calls.slice(seen)) {
        const id = tokenOf(secret);
        when.set(id, [...(when.get(id) ?? []), m]);
      }
    }
    for (const id of ids) {
      const slot = backupSlotOf(id);
      const first = slot === 0 ? 15 : slot;
      expect(when.get(id), id).toEqual([first, first + 15]);
    }
    expect(perTick.reduce((a, b) => a + b, 0)).toBe(60);
    expect(Math.max(...perTick)).toBeLessThan(30 / 2);
    expect(new Set(ids.map(backupSlotOf)).size).toBeGreaterThan(8);
    await t.db.deleteFrom('calendar_connections').where('id', 'in', ids).execute();
  });

  it('a never-synced connection is due at once; errors back off 1, 2, 4 … 15 min; expired connections are never retried', async () => {
    const id = await addConnection(null);
    t.clock.set(T0);
    mem.failWith(() => new ProviderError('Google Calendar is having trouble.'));
    const delays: number[] = [];
    let now = T0;
    for (let i = 0; i < 6; i++) {
      const counts = await runBackup();
      expect(counts).toMatchObject({ total: 1, failed: 1 });
      const row = await t.db.selectFrom('calendar_connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.last_error).toBe('Google Calendar is having trouble.');
      delays.push(Number(row.next_sync_at) - now);
      t.clock.set((now = Number(row.next_sync_at) - 1));
      expect((await runBackup()).total).toBe(0); // one ms early: not due
      t.clock.set((now = now + 1));
    }
    expect(delays).toEqual([1, 2, 4, 8, 15, 15].map((m) => m * MIN));
    expect(SYNC_BACKOFF_MAX_MS).toBe(15 * MIN);

    mem.failWith(() => new ProviderAuthError('Google refused the saved authorization. Please reconnect Google Calendar.'));
    expect((await runBackup()).failed).toBe(1);
    const row = await t.db.selectFrom('calendar_connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'expired', next_sync_at: null });
    const calls = mem.calls.length;
    for (const advance of [MIN, 15 * MIN, DAY]) {
      t.clock.set(now + advance);
      expect((await runBackup()).total).toBe(0);
    }
    scheduleSync(t.deps, id, 0);
    await sleep(100);
    expect(mem.calls.length).toBe(calls);
    mem.failWith(null);
    await t.db.deleteFrom('calendar_connections').where('id', '=', id).execute();
  });

  it('a sync lease held elsewhere skips the sync; the scheduled sync retries until the lease is free', async () => {
    t.clock.reset();
    const id = await addConnection(Date.now());
    const calls = () => mem.calls.filter((s) => tokenOf(s) === id).length;
    expect(await acquireSyncLease(t.db, id, Date.now(), { kind: 'always' }, SYNC_LEASE_MS, 'other-instance')).toBe(true);
    expect(await acquireSyncLease(t.db, id, Date.now(), { kind: 'always' }, SYNC_LEASE_MS, 'third-instance')).toBe(false);
    const outcome = await syncConnection(t.deps, id);
    expect(outcome).toMatchObject({ ok: true, busy: true });
    expect(calls()).toBe(0);

    // Waits on the queue's own record of a finished run (its outcome is stored once the sync,
    // lease release included, is over, and a busy run is re-queued in the same tick), never on time.
    const outcomesOf = () => finishedScheduledSyncs(t.db).filter((o) => o.connectionId === id);
    scheduleSync(t.deps, id, 0);
    await waitFor(() => outcomesOf().length === 1, 20_000);
    expect(outcomesOf()[0]).toMatchObject({ ok: true, busy: true });
    expect(calls()).toBe(0);
    expect(isSyncScheduled(t.db, id)).toBe(true); // re-queued behind the lease
    await releaseSyncLease(t.db, id, 'other-instance');
    await waitFor(() => outcomesOf().length === 2, 20_000);
    expect(outcomesOf()[1]).toMatchObject({ ok: true });
    expect(outcomesOf()[1]!.busy).toBeUndefined();
    expect(calls()).toBe(1);
    expect(isSyncScheduled(t.db, id)).toBe(false);
    const row = await t.db.selectFrom('calendar_connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ sync_lease_until: null, sync_lease_owner: null, status: 'active' });

    // Two instances racing for the same lease: exactly one wins.
    const wins = await Promise.all([acquireSyncLease(t.db, id, Date.now(), { kind: 'always' }, SYNC_LEASE_MS, 'a'), acquireSyncLease(t.db, id, Date.now(), { kind: 'always' }, SYNC_LEASE_MS, 'b')]);
    expect(wins.filter(Boolean)).toHaveLength(1);
    // An expired lease (crashed holder) is taken over.
    expect(await acquireSyncLease(t.db, id, Date.now() + 6 * MIN, { kind: 'always' }, SYNC_LEASE_MS, 'c')).toBe(true);
  });

  it('concurrent syncs of one connection in one process share a single run', async () => {
    const id = await addConnection(Date.now());
    const before = mem.calls.length;
    const outcomes = await Promise.all([syncConnection(t.deps, id), syncConnection(t.deps, id), syncConnection(t.deps, id)]);
    expect(outcomes.every((o) => o.ok && !o.busy)).toBe(true);
    expect(mem.calls.length - before).toBe(1);
  });
});
