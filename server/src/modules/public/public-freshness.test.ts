/**
 * Honest freshness (issue 14 item 3): the public answer says how old the busy time behind it is
 * (`as_of`) and whether it may be out of date (`stale`), and a cached answer never outlives that.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { insertConnection, updateConnection } from '../../store/calendars.repo.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import { freshnessOf, STALE_AFTER_MS } from './public-freshness.ts';

const MIN = 60_000;
const NOW = Date.UTC(2026, 2, 20, 12);
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
});
afterAll(async () => {
  await t.close();
});

async function owner() {
  const username = `fresh${Math.random().toString(36).slice(2, 8)}`;
  const built = await buildUser(t, { username, name: 'Olivia Owner' });
  return { ...built, username };
}
/** A connection written the way the app writes them (a replicated write: the public cache hears it). */
async function connection(userId: string, status: 'active' | 'error' | 'expired', lastSyncedAt: number | null) {
  const id = crypto.randomUUID();
  await replicatedWrite(t.deps, userId, (trx, stamp) =>
    insertConnection(trx, { id, user_id: userId, provider: 'ics', name: 'Work', status, account: 'x', connected_at: NOW, last_synced_at: lastSyncedAt }, stamp, t.deps.config.AVAIL_SECRET_KEY),
  );
  return id;
}
const get = (slug: string) => request(t.app).get(`/api/public/${slug}/availability`).query({ range: '2026-03-23..2026-03-27' }).expect(200);

describe('freshness of the public answer', () => {
  it('rule: oldest good sync, stale on error/expired/never synced/older than 30 min', () => {
    expect(freshnessOf([], NOW)).toEqual({ asOf: null, stale: false, validUntil: Infinity });
    expect(freshnessOf([{ status: 'active', last_synced_at: NOW - 10 * MIN }, { status: 'active', last_synced_at: NOW - 20 * MIN }], NOW)).toEqual({
      asOf: NOW - 20 * MIN,
      stale: false,
      validUntil: NOW - 20 * MIN + STALE_AFTER_MS + 1,
    });
    expect(freshnessOf([{ status: 'active', last_synced_at: NOW - 31 * MIN }], NOW).stale).toBe(true);
    expect(freshnessOf([{ status: 'error', last_synced_at: NOW - MIN }], NOW).stale).toBe(true);
    expect(freshnessOf([{ status: 'expired', last_synced_at: NOW - MIN }], NOW).stale).toBe(true);
    expect(freshnessOf([{ status: 'active', last_synced_at: null }], NOW)).toMatchObject({ asOf: null, stale: true });
  });

  it('no calendar: as_of null, not stale; a fresh calendar: as_of its sync; 30 minutes later the same query says stale', async () => {
    const o = await owner();
    expect((await get(o.username)).body).toMatchObject({ as_of: null, stale: false });
    await connection(o.user.id, 'active', NOW - 10 * MIN);
    expect((await get(o.username)).body).toMatchObject({ as_of: '2026-03-20T11:50:00Z', stale: false });
    // Nothing is written, only time passes: the cached answer must not be served once it is stale.
    t.clock.set(NOW + 21 * MIN);
    expect((await get(o.username)).body).toMatchObject({ as_of: '2026-03-20T11:50:00Z', stale: true });
    t.clock.set(NOW);
  });

  it('a calendar in error makes the answer stale at once (the change reaches the cache)', async () => {
    const o = await owner();
    const id = await connection(o.user.id, 'active', NOW - MIN);
    expect((await get(o.username)).body.stale).toBe(false);
    await replicatedWrite(t.deps, o.user.id, (trx, stamp) => updateConnection(trx, { id, user_id: o.user.id }, { status: 'error', last_error: 'Feed unreachable' }, stamp));
    expect((await get(o.username)).body).toMatchObject({ as_of: '2026-03-20T11:59:00Z', stale: true });
  });
});

describe('clock changes in the public answer (issue 14 item 5)', () => {
  it("lists the owner's and the visitor's zone changes inside the range, offsets in minutes", async () => {
    const o = await owner(); // Europe/Brussels
    const res = await request(t.app).get(`/api/public/${o.username}/availability`).query({ range: '2026-10-20..2026-11-05', tz: 'America/New_York' }).expect(200);
    expect(res.body.zone_changes).toEqual([
      { at: '2026-10-25T01:00:00Z', zone: 'Europe/Brussels', offset_before: 120, offset_after: 60 },
      { at: '2026-11-01T06:00:00Z', zone: 'America/New_York', offset_before: -240, offset_after: -300 },
    ]);
    // Only what is still ahead: New York changed on 8 March, before now (2026-03-20).
    const march = await request(t.app).get(`/api/public/${o.username}/availability`).query({ range: '2026-03-01..2026-03-31', tz: 'America/New_York' }).expect(200);
    expect(march.body.zone_changes).toEqual([{ at: '2026-03-29T01:00:00Z', zone: 'Europe/Brussels', offset_before: 60, offset_after: 120 }]);
    const later = await request(t.app).get(`/api/public/${o.username}/availability`).query({ range: '2026-03-21..2026-03-27', tz: 'Asia/Tokyo' }).expect(200);
    expect(later.body.zone_changes).toEqual([]);
  });
});
