import { describe, expect, it } from 'vitest';
import { zoneChangeNotices } from './zone-change-notice.ts';

const london = { at: '2026-03-29T01:00:00Z', zone: 'Europe/London', offset_before: 0, offset_after: 60 };
const newYork = { at: '2026-03-08T07:00:00Z', zone: 'America/New_York', offset_before: -300, offset_after: -240 };
const paris = { at: '2026-03-29T01:00:00Z', zone: 'Europe/Paris', offset_before: 60, offset_after: 120 };

describe('zoneChangeNotices', () => {
  it("an owner's clock change moves their hours the other way on the visitor's clock", () => {
    expect(zoneChangeNotices([london], 'Europe/London', 'Asia/Tokyo')).toEqual(['Clocks change on Sun 29 Mar 2026 in Europe/London: times after it are 1 h earlier for you.']);
  });
  it("the visitor's own clock change moves every later time", () => {
    expect(zoneChangeNotices([newYork], 'Europe/London', 'America/New_York')).toEqual([
      'Clocks change on Sun 8 Mar 2026 in America/New York (your time zone): times after it are 1 h later for you.',
    ]);
  });
  it('zones that change together, or one shared zone, say nothing', () => {
    expect(zoneChangeNotices([london, paris], 'Europe/London', 'Europe/Paris')).toEqual([]);
    expect(zoneChangeNotices([london], 'Europe/London', 'Europe/London')).toEqual([]);
    expect(zoneChangeNotices(undefined, 'Europe/London', 'Asia/Tokyo')).toEqual([]);
  });
  it('half-hour changes are said in minutes', () => {
    const lordHowe = { at: '2026-04-04T15:00:00Z', zone: 'Australia/Lord_Howe', offset_before: 660, offset_after: 630 };
    expect(zoneChangeNotices([lordHowe], 'Australia/Lord_Howe', 'UTC')).toEqual(['Clocks change on Sun 5 Apr 2026 in Australia/Lord Howe: times after it are 30 min later for you.']);
  });
});
