/**
 * "Restore this version" on the device (RxDB + Dexie on fake-indexeddb): a replaced version comes
 * back as a new local edit, stamped later than the version that replaced it, and marked pending.
 */
import { describe, expect, it } from 'vitest';
import { resolveConflict } from '../../src/rx/conflict-resolution.ts';
import { addBlockLocal, putExceptionLocal, readPending, replaceRulesLocal } from '../../src/rx/local-writes.ts';
import type { ReplacedVersion } from '../../src/rx/replication-protocol.ts';
import { restoreVersion } from '../../src/rx/restore-version.ts';
import { newTestDatabase } from './test-database.ts';

const H = 3_600_000;
const version = (collection: ReplacedVersion['collection'], docId: string, replaced: Record<string, unknown>, kept: Record<string, unknown> = {}): ReplacedVersion => ({
  id: crypto.randomUUID(),
  collection,
  docId,
  reason: 'latest_edit',
  decidedAt: new Date().toISOString(),
  replaced: { id: docId, _deleted: false, ...replaced },
  kept: { id: docId, _deleted: false, ...kept },
  byDevice: 'phone',
});

describe('restoreVersion', () => {
  it('a replaced rule comes back in place, as a later edit than the one that replaced it', async () => {
    const db = await newTestDatabase();
    await replaceRulesLocal(db, 'phone', [{ weekday: 1, start_time_local: '13:00', end_time_local: '17:00' }]);
    const [kept] = await db.availability_rules.find().exec();
    const v = version('availability_rules', kept!.id, { weekday: 1, start_time_local: '09:00', end_time_local: '12:00', device_id: 'laptop' });
    expect(await restoreVersion(db, 'laptop', v)).toBe('restored');
    const [now] = await db.availability_rules.find().exec();
    expect([now!.id, now!.start_time_local, now!.end_time_local, now!.device_id]).toEqual([kept!.id, '09:00', '12:00', 'laptop']);
    expect(now!.edited_at).toBeGreaterThan(kept!.edited_at);
    // The server would keep it against the version it restores over.
    const won = resolveConflict({ ...kept!.toJSON(), _deleted: false }, { ...now!.toJSON(), _deleted: false }).winner;
    expect(won.device_id).toBe('laptop');
    expect(Object.keys(await readPending(db))).toContain(`availability_rules/${kept!.id}`);
    // Restoring again changes nothing.
    expect(await restoreVersion(db, 'laptop', v)).toBe('current');
  });

  it('a rule deleted on another device comes back as a new rule with the same hours', async () => {
    const db = await newTestDatabase();
    const v = version('availability_rules', crypto.randomUUID(), { weekday: 4, start_time_local: '08:00', end_time_local: '10:00' }, { _deleted: true });
    expect(await restoreVersion(db, 'laptop', v)).toBe('restored');
    const rules = await db.availability_rules.find().exec();
    expect(rules.map((r) => [r.weekday, r.start_time_local, r.end_time_local])).toEqual([[4, '08:00', '10:00']]);
    expect(rules[0]!.id).not.toBe(v.docId);
  });

  it('exceptions: restored in place or re-created; a replaced deletion deletes again', async () => {
    const db = await newTestDatabase();
    const ex = await putExceptionLocal(db, 'phone', { date: '2030-02-01', start_time_local: null, end_time_local: null });
    expect(await restoreVersion(db, 'laptop', version('availability_exceptions', ex.id, { date: '2030-02-01', start_time_local: '10:00', end_time_local: '11:00' }))).toBe('restored');
    expect((await db.availability_exceptions.findOne(ex.id).exec())!.start_time_local).toBe('10:00');
    expect(await restoreVersion(db, 'laptop', version('availability_exceptions', ex.id, { date: '2030-02-01', _deleted: true }))).toBe('restored');
    expect(await db.availability_exceptions.findOne(ex.id).exec()).toBeNull();
  });

  it('blocks: a deleted block comes back as a new one; one still there is current; an ended one is refused', async () => {
    const db = await newTestDatabase();
    const now = Date.UTC(2030, 0, 7, 9);
    const b = await addBlockLocal(db, 'phone', { start_ms: now + H, end_ms: now + 2 * H, note: 'Dentist' }, now);
    expect(await restoreVersion(db, 'laptop', version('busy_blocks', b.id, { start_ms: now + H, end_ms: now + 2 * H, note: 'Dentist' }), now)).toBe('current');
    const gone = version('busy_blocks', crypto.randomUUID(), { start_ms: now + 3 * H, end_ms: now + 4 * H, note: null }, { _deleted: true });
    expect(await restoreVersion(db, 'laptop', gone, now)).toBe('restored');
    expect(await db.busy_blocks.count().exec()).toBe(2);
    const ended = version('busy_blocks', crypto.randomUUID(), { start_ms: now - 3 * H, end_ms: now - 2 * H, note: null }, { _deleted: true });
    await expect(restoreVersion(db, 'laptop', ended, now)).rejects.toThrow('This time is already over.');
    expect(await db.busy_blocks.count().exec()).toBe(2);
  });
});
