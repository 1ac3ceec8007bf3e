import { describe, expect, it } from 'vitest';
import { deviceIdOf } from '../../src/rx/avail-database.ts';
import { deleteExceptionLocal, putExceptionLocal, readPending, replaceRulesLocal } from '../../src/rx/local-writes.ts';
import { newTestDatabase } from './test-database.ts';


describe('local-first writes on the device (RxDB + Dexie on fake-indexeddb)', () => {
  it('saves a weekly schedule locally, marks every write pending, and keeps the device id stable', async () => {
    const db = await newTestDatabase();
    const device = await deviceIdOf(db);
    expect(await deviceIdOf(db)).toBe(device);
    await replaceRulesLocal(db, device, [
      { weekday: 0, start_time_local: '09:00', end_time_local: '12:00' },
      { weekday: 0, start_time_local: '13:00', end_time_local: '17:00' },
    ]);
    const rules = await db.availability_rules.find({ sort: [{ start_time_local: 'asc' }] }).exec();
    expect(rules.map((r) => `${r.weekday} ${r.start_time_local}-${r.end_time_local}`)).toEqual(['0 09:00-12:00', '0 13:00-17:00']);
    expect(rules.every((r) => r.device_id === device)).toBe(true);
    expect(Object.keys(await readPending(db))).toHaveLength(2);
  });

  it('diffs a schedule edit: an unchanged rule keeps its revision, a removed one is soft-deleted', async () => {
    const db = await newTestDatabase();
    const device = await deviceIdOf(db);
    await replaceRulesLocal(db, device, [
      { weekday: 1, start_time_local: '09:00', end_time_local: '12:00' },
      { weekday: 2, start_time_local: '09:00', end_time_local: '12:00' },
    ]);
    const [mon, tue] = await db.availability_rules.find({ sort: [{ weekday: 'asc' }] }).exec();
    const monRev = mon.revision;
    await replaceRulesLocal(db, device, [{ id: mon.id, weekday: 1, start_time_local: '09:00', end_time_local: '12:00' }]);
    const left = await db.availability_rules.find().exec();
    expect(left.map((r) => r.id)).toEqual([mon.id]);
    expect(left[0].revision).toBe(monRev);
    expect(await db.availability_rules.findOne(tue.id).exec()).toBeNull();
  });

  it('refuses an invalid rule with the spec message and writes nothing', async () => {
    const db = await newTestDatabase();
    await expect(
      replaceRulesLocal(db, 'd-1', [{ weekday: 0, start_time_local: '12:00', end_time_local: '09:00' }]),
    ).rejects.toThrow('End time must be after start time');
    expect(await db.availability_rules.count().exec()).toBe(0);
    expect(await readPending(db)).toEqual({});
  });

  it('refuses repeated or overlapping slots of one day offline too (issue 23), on the later slot, and writes nothing', async () => {
    const db = await newTestDatabase();
    const monday = { weekday: 0, start_time_local: '09:00', end_time_local: '17:00' };
    const refused = await replaceRulesLocal(db, 'd-1', [monday, { ...monday }, { weekday: 0, start_time_local: '16:00', end_time_local: '18:00' }]).then(
      () => null,
      (e: { issues: { path: PropertyKey[]; message: string }[] }) => e.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    );
    expect(refused).toEqual([
      '1.start_time_local: This time slot is already set for this day',
      '2.start_time_local: This time slot overlaps another slot on the same day',
    ]);
    expect(await db.availability_rules.count().exec()).toBe(0);
    expect(await readPending(db)).toEqual({});
    // Back-to-back is fine.
    await replaceRulesLocal(db, 'd-1', [monday, { weekday: 0, start_time_local: '17:00', end_time_local: '18:00' }]);
    expect(await db.availability_rules.count().exec()).toBe(2);
  });

  it('adds, edits and deletes a date exception locally', async () => {
    const db = await newTestDatabase();
    const off = await putExceptionLocal(db, 'd-1', { date: '2026-12-24', start_time_local: null, end_time_local: null });
    await putExceptionLocal(db, 'd-1', { id: off.id, date: '2026-12-24', start_time_local: '10:00', end_time_local: '12:00' });
    expect((await db.availability_exceptions.findOne(off.id).exec())?.start_time_local).toBe('10:00');
    await deleteExceptionLocal(db, 'd-1', off.id);
    expect(await db.availability_exceptions.count().exec()).toBe(0);
    expect(Object.keys(await readPending(db))).toEqual([`availability_exceptions/${off.id}`]);
  });
});
