import { describe, expect, it, vi } from 'vitest';
import { blocksBeforeFirstPull, blockWriteSent, pendingDeletedBlockIds, removeWeekBlock } from './use-week-events.ts';

describe('the week\'s busy blocks before the device\'s first pull (issue 25)', () => {
  it('the server\'s and the device\'s blocks merged by id, the device\'s copy winning (pending or not), by start', () => {
    const rest = [
      { id: 'b-2', start_ms: 3_000, end_ms: 4_000, note: 'Dentist' },
      { id: 'b-1', start_ms: 1_000, end_ms: 2_000, note: null },
      { id: 'b-4', start_ms: 5_000, end_ms: 6_000, note: null },
    ];
    const device = [
      { id: 'b-3', start_ms: 2_500, end_ms: 2_800, note: null, pending: true }, // tray "Busy for …" while the database opened
      { id: 'b-1', start_ms: 1_000, end_ms: 2_500, note: null, pending: true }, // moved here, not sent yet: the device's edit shows
      { id: 'b-4', start_ms: 5_000, end_ms: 6_000, note: 'Lunch', pending: false }, // already sent: the device's copy is the same or newer
      { id: 'b-9', start_ms: 9_000, end_ms: 9_500, note: null, pending: false }, // on the device from an earlier pull
    ];
    expect(blocksBeforeFirstPull(rest, device)).toEqual([
      { id: 'b-1', start_ms: 1_000, end_ms: 2_500, note: null, pending: true },
      { id: 'b-3', start_ms: 2_500, end_ms: 2_800, note: null, pending: true },
      { id: 'b-2', start_ms: 3_000, end_ms: 4_000, note: 'Dentist', pending: false },
      { id: 'b-4', start_ms: 5_000, end_ms: 6_000, note: 'Lunch', pending: false },
      { id: 'b-9', start_ms: 9_000, end_ms: 9_500, note: null, pending: false },
    ]);
    expect(blocksBeforeFirstPull([], undefined)).toEqual([]);
  });

  it('a block the device deleted (not yet sent) is not shown from the server\'s copy', () => {
    const rest = [{ id: 'b-1', start_ms: 1_000, end_ms: 2_000, note: null }, { id: 'b-2', start_ms: 3_000, end_ms: 4_000, note: null }];
    const live = [{ id: 'b-2', start_ms: 3_000, end_ms: 4_000, note: null, pending: false }];
    const deleted = pendingDeletedBlockIds(['busy_blocks/b-1', 'proposals/p-1'], live);
    expect([...deleted]).toEqual(['b-1']);
    expect(blocksBeforeFirstPull(rest, live, deleted).map((b) => b.id)).toEqual(['b-2']);
  });

  it('the server\'s copy is fetched again once a block edit of this device was pushed', () => {
    expect(blockWriteSent(['busy_blocks/b-1', 'proposals/p-1'], ['proposals/p-1'])).toBe(true);
    expect(blockWriteSent(['proposals/p-1'], [])).toBe(false);
    expect(blockWriteSent(['busy_blocks/b-1'], ['busy_blocks/b-1', 'busy_blocks/b-2'])).toBe(false);
  });

  it('a removal that fails is shown to the owner; one known only to the server is removed there and the week fetched again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onError = vi.fn();
    const afterServerDelete = vi.fn();
    await removeWeekBlock('b-1', { deleteOnDevice: null, deleteOnServer: async () => Promise.reject(new Error('Network error')), afterServerDelete, onError });
    expect(onError).toHaveBeenCalledWith('The busy block could not be removed: Network error');
    expect(afterServerDelete).not.toHaveBeenCalled();
    await removeWeekBlock('b-1', { deleteOnDevice: async () => Promise.reject(new Error('')), deleteOnServer: vi.fn(), afterServerDelete, onError });
    expect(onError).toHaveBeenLastCalledWith('The busy block could not be removed.');
    const deleteOnServer = vi.fn(async () => undefined);
    await removeWeekBlock('b-2', { deleteOnDevice: null, deleteOnServer, afterServerDelete, onError });
    expect(deleteOnServer).toHaveBeenCalledWith('b-2');
    expect(afterServerDelete).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledTimes(2);
  });
});
