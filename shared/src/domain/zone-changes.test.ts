import { describe, expect, it } from 'vitest';
import { getIanaZone, zoneChanges } from './zone-time.ts';

describe('zoneChanges', () => {
  it('finds the 2026 changes of Europe/London and America/New_York to the minute, none for Asia/Tokyo', () => {
    const start = Date.UTC(2026, 0, 1);
    const end = Date.UTC(2027, 0, 1);
    expect(zoneChanges(getIanaZone('Europe/London'), start, end)).toEqual([
      { instant: Date.UTC(2026, 2, 29, 1), zone: 'Europe/London', offsetBefore: 0, offsetAfter: 60 },
      { instant: Date.UTC(2026, 9, 25, 1), zone: 'Europe/London', offsetBefore: 60, offsetAfter: 0 },
    ]);
    expect(zoneChanges(getIanaZone('America/New_York'), start, end).map((c) => [new Date(c.instant).toISOString(), c.offsetBefore, c.offsetAfter])).toEqual([
      ['2026-03-08T07:00:00.000Z', -300, -240],
      ['2026-11-01T06:00:00.000Z', -240, -300],
    ]);
    expect(zoneChanges(getIanaZone('Asia/Tokyo'), start, end)).toEqual([]);
  });

  it('half-hour zones and a change right at the range start or end', () => {
    // Australia/Lord_Howe moves by 30 minutes (UTC+10:30 ↔ +11).
    const lh = zoneChanges(getIanaZone('Australia/Lord_Howe'), Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1));
    expect(lh.map((c) => c.offsetAfter - c.offsetBefore)).toEqual([-30, 30]);
    const at = Date.UTC(2026, 2, 29, 1);
    expect(zoneChanges(getIanaZone('Europe/London'), at, at + 3_600_000)).toEqual([]); // already in force at the start
    expect(zoneChanges(getIanaZone('Europe/London'), at - 3_600_000, at)).toEqual([]); // [start, end): not yet
    expect(zoneChanges(getIanaZone('Europe/London'), at - 3_600_000, at + 1)).toHaveLength(1);
  });
});
