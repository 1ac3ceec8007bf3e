import { describe, expect, it } from 'vitest';
import { resolvePublicRange, resolveRangeObject } from './public-range.ts';

const iso = (s: string) => Date.parse(s);
const NOW = iso('2025-12-01T00:00:00Z');
const ok = (r: ReturnType<typeof resolvePublicRange>) => {
  if (!r.ok) throw new Error(`expected ok, got ${r.error}`);
  return { start: new Date(r.start).toISOString(), end: new Date(r.end).toISOString() };
};
const err = (r: ReturnType<typeof resolvePublicRange>) => (r.ok ? 'OK' : r.error);

describe('resolvePublicRange', () => {
  it('dates are inclusive local dates in the owner zone by default', () => {
    expect(ok(resolvePublicRange({ range: '2026-03-21..2026-04-06' }, 'Europe/Brussels', NOW))).toEqual({
      start: '2026-03-20T23:00:00.000Z',
      end: '2026-04-06T22:00:00.000Z',
    });
  });
  it('dates in the visitor zone; edges at the first existing instant of the day', () => {
    // Santiago 2026-09-06 starts at 01:00 (-03): midnight does not exist
    expect(ok(resolvePublicRange({ range: '2026-09-06..2026-09-06', tz: 'America/Santiago' }, 'Europe/Brussels', NOW))).toEqual({
      start: '2026-09-06T04:00:00.000Z',
      end: '2026-09-07T03:00:00.000Z',
    });
    expect(ok(resolvePublicRange({ range: '2026-01-10..2026-01-10', tz: 'Pacific/Chatham' }, 'UTC', NOW))).toEqual({
      start: '2026-01-09T10:15:00.000Z',
      end: '2026-01-10T10:15:00.000Z',
    });
  });
  it('instants with Z or offsets; tz does not matter', () => {
    expect(ok(resolvePublicRange({ range: '2026-03-23T00:00:00Z..2026-03-24T12:30:00+02:00', tz: 'Asia/Tokyo' }, 'UTC', NOW))).toEqual({
      start: '2026-03-23T00:00:00.000Z',
      end: '2026-03-24T10:30:00.000Z',
    });
  });
  it('default range is now .. now + 28 x 24 h', () => {
    expect(ok(resolvePublicRange({}, 'Europe/Brussels', NOW))).toEqual({ start: '2025-12-01T00:00:00.000Z', end: '2025-12-29T00:00:00.000Z' });
    expect(ok(resolveRangeObject(undefined, 'Europe/Brussels', NOW)).end).toBe('2025-12-29T00:00:00.000Z');
  });
  it('93 dates is fine, 94 is not; 93 x 24 h of instants is fine, one second more is not', () => {
    expect(err(resolvePublicRange({ range: '2026-01-01..2026-04-03' }, 'UTC', NOW))).toBe('OK');
    expect(err(resolvePublicRange({ range: '2026-01-01..2026-04-04' }, 'UTC', NOW))).toMatch(/93 days/);
    expect(err(resolvePublicRange({ range: '2026-01-01T00:00:00Z..2026-04-04T00:00:00Z' }, 'UTC', NOW))).toBe('OK');
    expect(err(resolvePublicRange({ range: '2026-01-01T00:00:00Z..2026-04-04T00:00:01Z' }, 'UTC', NOW))).toMatch(/93 days/);
  });
  it('horizon: end may equal now + 366 days, not exceed it', () => {
    expect(err(resolvePublicRange({ range: '2026-11-26..2026-12-01', tz: 'UTC' }, 'UTC', NOW))).toBe('OK');
    expect(err(resolvePublicRange({ range: '2026-11-26..2026-12-02', tz: 'UTC' }, 'UTC', NOW))).toMatch(/366 days/);
  });
  it('refusals', () => {
    expect(err(resolvePublicRange({ range: '2026-10-05..2026-10-04' }, 'UTC', NOW))).toMatch(/before its start/);
    expect(err(resolvePublicRange({ range: '2026-07-11..2026-07-13', tz: 'Europe/Atlantis' }, 'UTC', NOW))).toBe('unknown time zone: Europe/Atlantis');
    expect(err(resolvePublicRange({ range: '2026-07-11T00:00:00Z..2026-07-13T00:00:00Z', tz: 'Europe/Atlantis' }, 'UTC', NOW))).toMatch(/unknown time zone/);
    expect(err(resolvePublicRange({ range: '2026-07-11T00:00:00..2026-07-13T00:00:00Z' }, 'UTC', NOW))).toMatch(/without a zone/);
    expect(err(resolvePublicRange({ range: '2026-02-30..2026-03-02' }, 'UTC', NOW))).toMatch(/invalid date/);
    expect(err(resolvePublicRange({ range: 'tomorrow' }, 'UTC', NOW))).toMatch(/malformed/);
    expect(err(resolvePublicRange({ range: '2026-07-11' }, 'UTC', NOW))).toMatch(/malformed/);
    expect(err(resolvePublicRange({ range: '2026-07-11..2026-07-12T00:00:00Z' }, 'UTC', NOW))).toMatch(/malformed/);
  });
});
