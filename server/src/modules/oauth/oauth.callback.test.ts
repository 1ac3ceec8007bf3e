/**
 * Callback edge cases with the in-memory adapter (test/oauth-kit.ts): a push failure never fails
 * the connect (the upkeep job opens the channel later), a rate-limited first sync keeps the
 * connection with its back-off, a refused grant stores nothing, and reconnecting the same account
 * keeps the connection while another account replaces it.
 */
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { createMemoryAdapter, waitFor } from '../../../test/oauth-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { backupSyncJob } from '../../jobs/backup-sync.job.ts';
import { pushChannelsJob } from '../../jobs/push-channels.job.ts';
import { decryptSecret } from '../../lib/crypto.ts';
import { openConnectionTexts } from '../../store/calendars.repo.ts';
import { ProviderRateLimitError } from '../../providers/oauth-provider.ts';
import { ProviderAuthError } from '../../providers/provider.ts';
import { isSyncScheduled } from '../sync/sync-queue.ts';
import { sha256Hex } from '../../store/oauth.repo.ts';

describe('OAuth callback edge cases (memory adapter)', () => {
  const mem = createMemoryAdapter('google');
  const original = { ...mem.adapter };
  let t: TestApp;
  let owner: BuiltUser;

  beforeAll(async () => {
    t = await createTestApp({ oauthProviders: { google: mem.adapter } });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    Object.assign(mem.adapter, original);
    mem.failWith(null);
    owner = await buildUser(t);
  });

  async function callback(code = 'code-1') {
    const start = await request(t.app).post('/api/me/calendar/google/connect').set(owner.auth).expect(200);
    const state = new URL(start.body.auth_url).searchParams.get('state')!;
    return request(t.app).get('/api/oauth/google/callback').query({ code, state });
  }
  // The name and account are sealed at rest (issue 26): opened here as the app opens them.
  const connections = async () =>
    (await t.db.selectFrom('calendar_connections').selectAll().where('user_id', '=', owner.user.id).execute()).map((c) => openConnectionTexts(c, t.config.AVAIL_SECRET_KEY));

  it('a push failure does not fail the connect; the channel-upkeep job opens it later', async () => {
    (mem.adapter as { startPush: unknown }).startPush = async () => {
      throw new Error('watch refused');
    };
    const res = await callback();
    expect(res.status).toBe(200);
    expect(res.text).toContain('Google Calendar connected. You can close this window.');
    const [c] = await connections();
    expect(c).toMatchObject({ status: 'active', name: 'Google Calendar', account: 'mem@example.com' });
    expect(await t.db.selectFrom('push_channels').select('id').where('connection_id', '=', c!.id).execute()).toEqual([]);
    Object.assign(mem.adapter, original);
    expect((await pushChannelsJob().run(t.deps, { isStopping: () => false }) as { opened: number }).opened).toBe(1);
    expect(await t.db.selectFrom('push_channels').select('calendar_id').where('connection_id', '=', c!.id).execute()).toEqual([{ calendar_id: 'primary' }]);
  });

  it('a webhook only schedules: 200 before the sync starts, the sync follows after the debounce', async () => {
    expect((await callback()).status).toBe(200);
    const [c] = await connections();
    const ch = await t.db.selectFrom('push_channels').selectAll().where('connection_id', '=', c!.id).executeTakeFirstOrThrow();
    const token = `tok-${ch.channel_id.slice('mem-'.length)}`; // the memory adapter's channel token
    expect(ch.token_hash).toBe(sha256Hex(token));
    const before = mem.calls.length;
    const res = await request(t.app).post('/api/webhooks/google').set({ 'X-Goog-Channel-ID': ch.channel_id, 'X-Goog-Channel-Token': token, 'X-Goog-Resource-State': 'exists' });
    expect(res.status).toBe(200);
    expect(mem.calls.length).toBe(before); // nothing ran inside the request
    expect(isSyncScheduled(t.db, c!.id)).toBe(true);
    await waitFor(() => mem.calls.length === before + 1, 3_000);
    expect(isSyncScheduled(t.db, c!.id)).toBe(false);
  });

  it('a rate-limited first sync keeps the connection (error, back-off) and says connected', async () => {
    t.clock.set(Date.parse('2030-01-07T12:00:00Z'));
    mem.failWith(() => new ProviderRateLimitError(30_000));
    const res = await callback();
    expect(res.status).toBe(200);
    const [c] = await connections();
    expect(c).toMatchObject({ status: 'error', failure_count: 1, next_sync_at: Date.parse('2030-01-07T12:00:30Z') });
    expect(await t.db.selectFrom('push_channels').select('id').where('connection_id', '=', c!.id).execute()).toEqual([]); // no calendars known yet
    // The backup sync retries once the back-off is over and then opens the push channel.
    mem.failWith(null);
    t.clock.set(Date.parse('2030-01-07T12:00:30Z'));
    expect(await backupSyncJob().run(t.deps, { isStopping: () => false })).toMatchObject({ failed: 0 }); // (other tests' connections may be due too)
    expect(await t.db.selectFrom('push_channels').select('calendar_id').where('connection_id', '=', c!.id).execute()).toEqual([{ calendar_id: 'primary' }]);
    t.clock.reset();
  });

  it('a grant refused by the first sync stores nothing and shows the failure page', async () => {
    mem.failWith(() => new ProviderAuthError());
    const res = await callback();
    expect(res.status).toBe(400);
    expect(res.text).toContain('Failed to connect Google Calendar. Please try again.');
    expect(await connections()).toEqual([]);
  });

  it('a failed code exchange shows the failure page', async () => {
    (mem.adapter as { exchangeCode: unknown }).exchangeCode = async () => {
      throw new Error('invalid_grant');
    };
    const res = await callback();
    expect(res.status).toBe(400);
    expect(await connections()).toEqual([]);
  });

  it('reconnecting the same account keeps the connection (new tokens, active again); another account replaces it', async () => {
    await callback();
    const [first] = await connections();
    await t.db.updateTable('calendar_connections').set({ status: 'expired', last_error: 'refused' }).where('id', '=', first!.id).execute();
    (mem.adapter as { exchangeCode: unknown }).exchangeCode = async () => ({
      tokens: { access_token: 'second-access', refresh_token: 'second-refresh', expires_at: Date.now() + 3_600_000 },
      account: 'MEM@example.com',
    });
    expect((await callback()).status).toBe(200);
    const [again, ...rest] = await connections();
    expect(rest).toEqual([]);
    expect(again).toMatchObject({ id: first!.id, status: 'active', last_error: null });
    expect(JSON.parse(decryptSecret(again!.secret_enc!, t.config.AVAIL_SECRET_KEY)).access_token).toBe('second-access');
    expect(await t.db.selectFrom('push_channels').select('id').where('connection_id', '=', first!.id).execute()).toHaveLength(1);

    (mem.adapter as { exchangeCode: unknown }).exchangeCode = async () => ({
      tokens: { access_token: 'other-access', refresh_token: null, expires_at: Date.now() + 3_600_000 },
      account: 'someone-else@example.com',
    });
    expect((await callback()).status).toBe(200);
    const after = await connections();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ account: 'someone-else@example.com', status: 'active' });
    expect(after[0]!.id).not.toBe(first!.id);
    expect(await t.db.selectFrom('push_channels').select('id').where('connection_id', '=', first!.id).execute()).toEqual([]);
  });
});
