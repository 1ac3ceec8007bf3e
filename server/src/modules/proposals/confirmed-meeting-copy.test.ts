/**
 * A confirmed meeting and its calendar copy (issue 26 review of 65fc865): the copy's UID is stored
 * sealed with a random IV, so it is found by its keyed hash (calendar_events.uid_key,
 * 0018_event_uid_key). The public page must keep the meeting busy while its copy derives as free
 * (calendar switched off, busy rule), and let a busy copy the owner moved free the old time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories.ts';
import { openAllWeek, publicWindows, utcDatePlus } from '../../../test/oauth-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { insertConnection, replaceDerived } from '../../store/calendars.repo.ts';
import { insertProposal } from '../../store/proposals.repo.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import { sealPlainPersonalText } from '../../store/sealed-text.repo.ts';

const DAY = utcDatePlus(3);
const at = (hh: string) => Date.parse(`${DAY}T${hh}:00Z`);
const UID = 'meeting-7f3a@avail.example';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** True when [from, to) (UTC ms) lies inside one public free window of `slug` on DAY. */
async function isFree(slug: string, from: number, to: number): Promise<boolean> {
  return (await publicWindows(t, slug, DAY)).some((w) => {
    const [s, e] = w.split('/') as [string, string];
    return Date.parse(s) <= from && to <= Date.parse(e);
  });
}

/**
 * An owner open all week (UTC) with a confirmed 10:00–10:30 meeting (our UID) written to a
 * calendar connection; `syncedSinceConfirm` = a sync that began after the confirmation finished.
 */
async function ownerWithMeeting(syncedSinceConfirm: boolean) {
  const slug = `mcopy${Math.random().toString(36).slice(2, 8)}`;
  const { user } = await buildUser(t, { username: slug, timezone: 'UTC' });
  await openAllWeek(t, user.id);
  const now = t.clock.now();
  const decidedAt = now - 60_000;
  const conn = { id: crypto.randomUUID(), user_id: user.id };
  const syncStartedAt = syncedSinceConfirm ? decidedAt + 1_000 : decidedAt - 1_000;
  await replicatedWrite(t.deps, user.id, (trx, stamp) =>
    insertConnection(
      trx,
      { ...conn, provider: 'caldav', name: 'Work', status: 'active', connected_at: now - 86_400_000, sync_started_at: syncStartedAt, last_synced_at: syncStartedAt + 500 },
      stamp,
      t.config.AVAIL_SECRET_KEY,
    ),
  );
  const id = crypto.randomUUID();
  await insertProposal(
    t.db,
    { id, user_id: user.id, start_ms: at('10:00'), end_ms: at('10:30'), name: 'Vera', email: 'vera@example.org', note: '', visitor_timezone: 'UTC', visitor_language: 'en', created_at: decidedAt - 60_000, updated_at: 1, edited_at: decidedAt - 60_000, share_link_id: null },
    t.config.AVAIL_SECRET_KEY,
  );
  await t.db.updateTable('proposals').set({ status: 'confirmed', decided_at: decidedAt, uid: UID, target_connection_id: conn.id }).where('id', '=', id).execute();
  return { slug, userId: user.id, conn };
}

/** Writes the calendar's copy of the meeting the way a sync does (sealed UID, keyed hash). */
async function syncCopy(conn: { id: string; user_id: string }, start: number, end: number, isBusy: boolean) {
  const derived = {
    events: [{ uid: UID, title: 'Meeting with Vera', start, end, allDay: false, isBusy, dependsOnOwnerZone: false }],
    intervals: isBusy ? [{ start, end, dependsOnOwnerZone: false }] : [],
  };
  await replicatedWrite(t.deps, conn.user_id, (trx, stamp) => replaceDerived(trx, conn, derived, stamp, t.config.AVAIL_SECRET_KEY));
}

describe('a confirmed meeting and its calendar copy', () => {
  it('stays busy after a sync while its copy counts as free (calendar switched off or a busy rule)', async () => {
    const o = await ownerWithMeeting(true);
    await syncCopy(o.conn, at('10:00'), at('10:30'), false);
    const stored = await t.db.selectFrom('calendar_events').select(['uid', 'uid_key']).where('connection_id', '=', o.conn.id).executeTakeFirstOrThrow();
    expect(stored.uid).not.toContain(UID); // sealed at rest
    expect(stored.uid_key).toMatch(/^[0-9a-f]{64}$/);
    expect(await isFree(o.slug, at('10:00'), at('10:30'))).toBe(false);
    expect(await isFree(o.slug, at('11:00'), at('11:30'))).toBe(true);
  });

  it('a busy copy the owner moved frees the old time (also before a sync since the confirmation finished)', async () => {
    const o = await ownerWithMeeting(false);
    expect(await isFree(o.slug, at('10:00'), at('10:30'))).toBe(false); // busy at once, before any copy
    await syncCopy(o.conn, at('14:00'), at('14:30'), true);
    expect(await isFree(o.slug, at('10:00'), at('10:30'))).toBe(true);
    expect(await isFree(o.slug, at('14:00'), at('14:30'))).toBe(false);
  });

  it('a copy stored by an earlier version (UID in clear, no keyed hash) is keyed by the start-up pass', async () => {
    const o = await ownerWithMeeting(true);
    await t.db
      .insertInto('calendar_events')
      .values({ id: crypto.randomUUID(), user_id: o.userId, connection_id: o.conn.id, uid: UID, title: 'Meeting with Vera', start_ms: at('10:00'), end_ms: at('10:30'), all_day: 0, is_busy: 0, depends_on_owner_zone: 0 })
      .execute();
    expect(await sealPlainPersonalText(t.db, t.config.AVAIL_SECRET_KEY)).toBeGreaterThanOrEqual(1);
    const stored = await t.db.selectFrom('calendar_events').select(['uid', 'uid_key']).where('connection_id', '=', o.conn.id).executeTakeFirstOrThrow();
    expect(stored.uid).not.toContain(UID);
    expect(stored.uid_key).toMatch(/^[0-9a-f]{64}$/);
    expect(await isFree(o.slug, at('10:00'), at('10:30'))).toBe(false);
  });
});
