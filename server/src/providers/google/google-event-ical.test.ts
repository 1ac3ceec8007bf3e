import { expandBusy, parseCalendar } from '@avail/shared/ical/calendar.ts';
import { describe, expect, it } from 'vitest';
import { compactEvent, seriesToIcs, timeProperty } from './google-event-ical.ts';
import { applyListing } from './google.provider.ts';

const busyOf = (ics: string, ownerEmails: string[] = []) =>
  expandBusy(parseCalendar(ics), {
    ownerZone: 'Europe/Brussels',
    ownerEmails,
    rangeStart: Date.parse('2027-01-01T00:00:00Z'),
    rangeEnd: Date.parse('2028-01-01T00:00:00Z'),
  }).intervals.map((i) => [new Date(i.start).toISOString(), new Date(i.end).toISOString()]);

describe('Google event → iCalendar', () => {
  it('writes times as VALUE=DATE, TZID wall time of the instant, or UTC from the offset', () => {
    expect(timeProperty('DTSTART', { date: '2027-03-17' })).toBe('DTSTART;VALUE=DATE:20270317');
    // Google may send the offset of the calendar's zone while the event has its own zone.
    expect(timeProperty('DTSTART', { dateTime: '2027-06-01T09:00:00+02:00', timeZone: 'America/New_York' })).toBe(
      'DTSTART;TZID=America/New_York:20270601T030000',
    );
    expect(timeProperty('DTSTART', { dateTime: '2027-06-01T09:00:00.000Z' })).toBe('DTSTART:20270601T090000Z');
    expect(timeProperty('DTSTART', { dateTime: '2027-06-01T09:00:00', timeZone: 'Europe/Brussels' })).toBe(
      'DTSTART;TZID=Europe/Brussels:20270601T090000',
    );
    // A zone nobody knows: the instant stays exact (UTC).
    expect(timeProperty('DTSTART', { dateTime: '2027-06-01T09:00:00+02:00', timeZone: 'Mars/Olympus' })).toBe('DTSTART:20270601T070000Z');
    expect(timeProperty('DTSTART', { dateTime: 'garbage' })).toBeNull();
  });

  it('keeps only recurrence lines, one line each; escapes and folds text', () => {
    const ics = seriesToIcs(
      compactEvent({
        id: 'e1',
        summary: 'A, b; c\nd',
        start: { dateTime: '2027-03-15T09:00:00+01:00', timeZone: 'Europe/Brussels' },
        end: { dateTime: '2027-03-15T10:00:00+01:00', timeZone: 'Europe/Brussels' },
        recurrence: ['RRULE:FREQ=DAILY;COUNT=2', 'X-INJECT:1', 'EXDATE:20270316T080000Z\r\nBEGIN:VEVENT'],
        description: 'not kept',
        attendees: [{ email: 'someone@example.com', responseStatus: 'declined' }],
      }),
      [],
    )!;
    expect(ics).toContain('SUMMARY:A\\, b\\; c\\nd');
    expect(ics).toContain('RRULE:FREQ=DAILY;COUNT=2');
    expect(ics).not.toContain('X-INJECT');
    expect(ics).not.toContain('EXDATE');
    expect(ics).not.toContain('not kept');
    expect(ics).not.toContain('ATTENDEE'); // only the self attendee is kept
    expect(ics.split('\r\n').every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
    expect(busyOf(ics)).toEqual([
      ['2027-03-15T08:00:00.000Z', '2027-03-15T09:00:00.000Z'],
      ['2027-03-16T08:00:00.000Z', '2027-03-16T09:00:00.000Z'],
    ]);
  });

  it('tentative and needsAction invitations are busy; working locations are not', () => {
    const base = {
      start: { dateTime: '2027-03-15T09:00:00Z' },
      end: { dateTime: '2027-03-15T10:00:00Z' },
    };
    const tentative = seriesToIcs(compactEvent({ id: 't', status: 'tentative', attendees: [{ email: 'me@x.com', self: true, responseStatus: 'tentative' }], ...base }), [])!;
    expect(tentative).toContain('ATTENDEE;PARTSTAT=TENTATIVE:mailto:me@x.com');
    expect(busyOf(tentative, ['me@x.com'])).toHaveLength(1);
    const wl = seriesToIcs(compactEvent({ id: 'w', eventType: 'workingLocation', start: { date: '2027-03-15' }, end: { date: '2027-03-16' } }), [])!;
    expect(busyOf(wl)).toEqual([]);
    const ooo = seriesToIcs(compactEvent({ id: 'o', eventType: 'outOfOffice', transparency: 'opaque', ...base }), [])!;
    expect(busyOf(ooo)).toHaveLength(1);
  });

  it('exceptions without their master (an invitation to one instance) count on their own times', () => {
    const ics = seriesToIcs(null, [
      compactEvent({
        id: 'm_20270315T080000Z',
        recurringEventId: 'm',
        iCalUID: 'm@google.com',
        originalStartTime: { dateTime: '2027-03-15T09:00:00+01:00', timeZone: 'Europe/Brussels' },
        start: { dateTime: '2027-03-15T11:00:00+01:00', timeZone: 'Europe/Brussels' },
        end: { dateTime: '2027-03-15T12:00:00+01:00', timeZone: 'Europe/Brussels' },
      }),
    ])!;
    expect(ics).toContain('UID:m@google.com');
    expect(busyOf(ics)).toEqual([['2027-03-15T10:00:00.000Z', '2027-03-15T11:00:00.000Z']]);
    expect(seriesToIcs(null, [compactEvent({ id: 'x_1', status: 'cancelled', recurringEventId: 'x', originalStartTime: { date: '2027-03-15' } })])).toBeNull();
  });
});

describe('applyListing', () => {
  const master = {
    id: 's',
    summary: 'Series',
    start: { date: '2027-03-15' },
    end: { date: '2027-03-16' },
    recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
  };
  const now = Date.parse('2027-03-01T00:00:00Z');

  it('a deleted exception that comes back with its id only cancels that instance', () => {
    const first = applyListing({
      calendarId: 'c',
      full: true,
      items: [master, { id: 's_20270316', recurringEventId: 's', originalStartTime: { date: '2027-03-16' }, start: { date: '2027-03-16' }, end: { date: '2027-03-17' }, summary: 'x' }],
      previous: null,
      nextSyncToken: 't1',
      held: new Map(),
      now,
    });
    expect(first.upserts.map((u) => u.href)).toEqual(['s']);
    const held = new Map([['s', first.upserts[0]!.etag]]);
    const second = applyListing({
      calendarId: 'c',
      full: false,
      items: [{ id: 's_20270316', status: 'cancelled' }],
      previous: first.state,
      nextSyncToken: 't2',
      held,
      now,
    });
    expect(second.removals).toEqual([]);
    expect(second.upserts).toHaveLength(1);
    expect(busyOf(second.upserts[0]!.icsText).map(([s]) => s.slice(0, 10))).toEqual(['2027-03-14', '2027-03-16']);
  });

  it('a series that loses its recurrence becomes a single event; old single events are not stored', () => {
    const first = applyListing({ calendarId: 'c', full: true, items: [master], previous: null, nextSyncToken: 't1', held: new Map(), now });
    expect(Object.keys(first.state.series)).toEqual(['s']);
    const second = applyListing({
      calendarId: 'c',
      full: false,
      items: [{ ...master, recurrence: undefined }, { id: 'old', start: { dateTime: '2026-12-01T10:00:00Z' }, end: { dateTime: '2026-12-01T11:00:00Z' } }],
      previous: first.state,
      nextSyncToken: 't2',
      held: new Map([['s', first.upserts[0]!.etag], ['old', '"x"']]),
      now,
    });
    expect(second.state.series).toEqual({});
    expect(second.upserts.map((u) => u.href)).toEqual(['s']);
    expect(second.removals).toEqual(['old']); // moved far into the past: the held copy goes
  });
});
