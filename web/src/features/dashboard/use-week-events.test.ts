import { describe, expect, it } from 'vitest';
import { blocksBeforeFirstPull } from './use-week-events.ts';

describe('the week\'s busy blocks before the device\'s first pull (issue 25)', () => {
  it('the server\'s blocks plus the device\'s own not yet sent, by start; a device block the server already has is shown once', () => {
    const rest = [
      { id: 'b-2', start_ms: 3_000, end_ms: 4_000, note: 'Dentist' },
      { id: 'b-1', start_ms: 1_000, end_ms: 2_000, note: null },
    ];
    const device = [
      { id: 'b-3', start_ms: 2_500, end_ms: 2_800, note: null, pending: true }, // tray "Busy for …" while the database opened
      { id: 'b-1', start_ms: 1_000, end_ms: 2_000, note: null, pending: true }, // sent meanwhile: the server's copy counts
      { id: 'b-9', start_ms: 9_000, end_ms: 9_500, note: null, pending: false }, // an old pulled copy: only the server's view counts
    ];
    expect(blocksBeforeFirstPull(rest, device)).toEqual([
      { id: 'b-1', start_ms: 1_000, end_ms: 2_000, note: null, pending: false },
      { id: 'b-3', start_ms: 2_500, end_ms: 2_800, note: null, pending: true },
      { id: 'b-2', start_ms: 3_000, end_ms: 4_000, note: 'Dentist', pending: false },
    ]);
    expect(blocksBeforeFirstPull([], undefined)).toEqual([]);
  });
});
