import { describe, expect, it } from 'vitest';
import { createFormats } from '@avail/shared/i18n/formats.ts';
import { en } from '@avail/shared/i18n/messages/en.ts';
import { de } from '@avail/shared/i18n/messages/de.ts';
import { createVisitorI18n } from '@avail/shared/i18n/visitor-i18n.ts';
import { zoneChangeNotices } from './zone-change-notice.ts';

const london = { at: '2026-03-29T01:00:00Z', zone: 'Europe/London', offset_before: 0, offset_after: 60 };
const newYork = { at: '2026-03-08T07:00:00Z', zone: 'America/New_York', offset_before: -300, offset_after: -240 };
const paris = { at: '2026-03-29T01:00:00Z', zone: 'Europe/Paris', offset_before: 60, offset_after: 120 };
const t = createVisitorI18n('en', en).t;
const gb = createFormats({ locale: 'en-GB' });

describe('zoneChangeNotices', () => {
  it("an owner's clock change moves their hours the other way on the visitor's clock", () => {
    expect(zoneChangeNotices([london], 'Europe/London', 'Asia/Tokyo', t, gb)).toEqual(['Clocks change on 29 Mar 2026 in Europe/London: times after it are 1 hour earlier for you.']);
  });
  it("the visitor's own clock change moves every later time", () => {
    expect(zoneChangeNotices([newYork], 'Europe/London', 'America/New_York', t, createFormats({ locale: 'en-US' }))).toEqual([
      'Clocks change on Mar 8, 2026 in America/New York (your time zone): times after it are 1 hour later for you.',
    ]);
  });
  it('zones that change together, or one shared zone, say nothing', () => {
    expect(zoneChangeNotices([london, paris], 'Europe/London', 'Europe/Paris', t, gb)).toEqual([]);
    expect(zoneChangeNotices([london], 'Europe/London', 'Europe/London', t, gb)).toEqual([]);
    expect(zoneChangeNotices(undefined, 'Europe/London', 'Asia/Tokyo', t, gb)).toEqual([]);
  });
  it('half-hour changes are said in minutes', () => {
    const lordHowe = { at: '2026-04-04T15:00:00Z', zone: 'Australia/Lord_Howe', offset_before: 660, offset_after: 630 };
    expect(zoneChangeNotices([lordHowe], 'Australia/Lord_Howe', 'UTC', t, gb)).toEqual(['Clocks change on 5 Apr 2026 in Australia/Lord Howe: times after it are 30 minutes later for you.']);
  });
  it("in the visitor's language and date format", () => {
    const deT = createVisitorI18n('de', de).t;
    expect(zoneChangeNotices([london], 'Europe/London', 'Asia/Tokyo', deT, createFormats({ locale: 'de-DE' }))).toEqual([
      'Am 29. März 2026 wird in Europe/London die Uhr umgestellt: Zeiten danach liegen für Sie 1 Stunde früher.',
    ]);
  });
});
