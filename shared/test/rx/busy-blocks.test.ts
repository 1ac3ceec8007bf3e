import { describe, expect, it } from 'vitest';
import { deviceIdOf } from '../../src/rx/avail-database.ts';
import { addBlockLocal, deleteBlockLocal, readPending } from '../../src/rx/local-writes.ts';
import { newTestDatabase } from './test-database.ts';

const H = 3_600_000;
const DAY = 24 * H;
const NOW = Date.UTC(2026, 5, 1, 9); // the clock the "already over" check uses


describe('busy blocks on the device (RxDB + Dexie on fake-indexeddb)', () => {
  it('adds blocks locally, returns the stored document and marks each write pending', async () => {
    const db = await newTestDatabase();
    const device = await deviceIdOf(db);
    const later = await addBlockLocal(db, device, { start_ms: NOW + 2 * DAY, end_ms: NOW + 2 * DAY + H }, NOW);
    const dentist = await addBlockLocal(db, device, { start_ms: NOW + H, end_ms: NOW + 2 * H, note: '  Dentist  ' }, NOW);
    expect(dentist).toEqual({
      id: expect.any(String),
      start_ms: NOW + H,
      end_ms: NOW + 2 * H,
      note: 'Dentist',
      edited_at: expect.any(Number),
      device_id: device,
      updated_at: dentist.edited_at,
    });
    expect(later.note).toBeNull();
    // The week preview reads them by start (indexed).
    const stored = await db.busy_blocks.find({ sort: [{ start_ms: 'asc' }] }).exec();
    expect(stored.map((b) => [b.id, b.note])).toEqual([[dentist.id, 'Dentist'], [later.id, null]]);
    expect(Object.keys(await readPending(db)).sort()).toEqual([`busy_blocks/${dentist.id}`, `busy_blocks/${later.id}`].sort());
  });

  it('accepts a block that has already started but not ended, and one of exactly 14 days', async () => {
    const db = await newTestDatabase();
    await addBlockLocal(db, 'd-1', { start_ms: NOW - H, end_ms: NOW + H }, NOW);
    await addBlockLocal(db, 'd-1', { start_ms: NOW, end_ms: NOW + 14 * DAY }, NOW);
    expect(await db.busy_blocks.count().exec()).toBe(2);
  });

  it('refuses bad input with the spec message and writes nothing', async () => {
    const db = await newTestDatabase();
    const cases: Array<[{ start_ms: number; end_ms: number; note?: string }, string]> = [
      [{ start_ms: NOW + 2 * H, end_ms: NOW + H }, 'The end must be after the start.'],
      [{ start_ms: NOW + H, end_ms: NOW + H }, 'The end must be after the start.'],
      [{ start_ms: NOW, end_ms: NOW + 14 * DAY + 1 }, 'A busy block can last at most 14 days.'],
      [{ start_ms: NOW - 2 * H, end_ms: NOW }, 'This time is already over.'],
      [{ start_ms: NOW + H, end_ms: NOW + 2 * H, note: 'x'.repeat(201) }, 'The note can be at most 200 characters.'],
    ];
    for (const [input, message] of cases) {
      await expect(addBlockLocal(db, 'd-1', input, NOW), JSON.stringify(input)).rejects.toThrow(message);
    }
    expect(await db.busy_blocks.count().exec()).toBe(0);
    expect(await readPending(db)).toEqual({});
  });

  it('deletes a block with a soft delete that replicates (pending, newer edit stamp); unknown ids are a no-op', async () => {
    const db = await newTestDatabase();
    const keep = await addBlockLocal(db, 'd-1', { start_ms: NOW + H, end_ms: NOW + 2 * H }, NOW);
    const gone = await addBlockLocal(db, 'd-1', { start_ms: NOW + 3 * H, end_ms: NOW + 4 * H, note: 'Gym' }, NOW);
    await deleteBlockLocal(db, 'd-2', gone.id);
    await deleteBlockLocal(db, 'd-2', 'no-such-block');
    expect((await db.busy_blocks.find().exec()).map((b) => b.id)).toEqual([keep.id]);
    const pending = await readPending(db);
    expect(Object.keys(pending).sort()).toEqual([`busy_blocks/${keep.id}`, `busy_blocks/${gone.id}`].sort());
    expect(pending[`busy_blocks/${gone.id}`]).toMatchObject({ at: expect.any(Number) });
    expect((pending[`busy_blocks/${gone.id}`] as { at: number }).at).toBeGreaterThan(gone.edited_at);
    // The stored deleted state carries this device's edit (what the conflict rule compares).
    const raw = await db.busy_blocks.storageInstance.findDocumentsById([gone.id], true);
    expect(raw[0]).toMatchObject({ id: gone.id, _deleted: true, device_id: 'd-2', note: 'Gym' });
  });
});
