import { describe, expect, it } from 'vitest';
import { DEFAULT_BUSY_RULES, isDefaultBusyRules, readBusyRules, type BusyRules } from './busy-rules.ts';
import { expandBusy, parseCalendar } from './calendar.ts';

const ME = 'me@example.com';
function cal(...events: string[][]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...events.flat(), 'END:VCALENDAR', ''].join('\r\n');
}
function ev(uid: string, ...props: string[]): string[] {
  return ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', ...props, 'END:VEVENT'];
}
const text = cal(
  ev('allday', 'DTSTART;VALUE=DATE:20260302', 'SUMMARY:Trip'),
  ev('maybe', 'DTSTART:20260303T090000Z', 'DTEND:20260303T100000Z', 'SUMMARY:Demo', `ATTENDEE;PARTSTAT=TENTATIVE:mailto:${ME}`),
  ev('status-tentative', 'DTSTART:20260303T100000Z', 'DTEND:20260303T110000Z', 'SUMMARY:Pencilled', 'STATUS:TENTATIVE'),
  ev('outlook-tentative', 'DTSTART:20260303T110000Z', 'DTEND:20260303T120000Z', 'SUMMARY:Hold', 'X-MICROSOFT-CDO-BUSYSTATUS:TENTATIVE'),
  ev('open', 'DTSTART:20260303T130000Z', 'DTEND:20260303T140000Z', 'SUMMARY:Invite', `ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:${ME}`),
  ev('other-open', 'DTSTART:20260303T140000Z', 'DTEND:20260303T150000Z', 'SUMMARY:Their invite', `ATTENDEE;PARTSTAT=ACCEPTED:mailto:${ME}`, 'ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:you@example.com'),
  ev('kw', 'DTSTART:20260303T150000Z', 'DTEND:20260303T160000Z', 'SUMMARY:Deep FOCUS block'),
  ev('declined', 'DTSTART:20260303T160000Z', 'DTEND:20260303T170000Z', 'SUMMARY:Focus? no', `ATTENDEE;PARTSTAT=DECLINED:mailto:${ME}`),
);

/** UIDs of the busy events under `rules`. */
function busyUids(rules?: BusyRules): string[] {
  const r = expandBusy(parseCalendar(text), { ownerZone: 'UTC', ownerEmails: [ME], rangeStart: Date.parse('2026-03-01T00:00:00Z'), rangeEnd: Date.parse('2026-03-05T00:00:00Z'), busyRules: rules });
  return r.events.filter((e) => e.isBusy).map((e) => e.uid);
}
const ALL = ['allday', 'maybe', 'status-tentative', 'outlook-tentative', 'open', 'other-open', 'kw'];

describe('busy rules', () => {
  it("default to the semantics doc's rules: everything but declined events is busy", () => {
    expect(busyUids()).toEqual(ALL);
    expect(busyUids(DEFAULT_BUSY_RULES)).toEqual(ALL);
  });

  it('free all-day events only', () => {
    expect(busyUids({ ...DEFAULT_BUSY_RULES, all_day: 'free' })).toEqual(ALL.filter((u) => u !== 'allday'));
  });

  it('free tentative events: the owner answered maybe, STATUS:TENTATIVE, or Outlook TENTATIVE', () => {
    expect(busyUids({ ...DEFAULT_BUSY_RULES, tentative: 'free' })).toEqual(['allday', 'open', 'other-open', 'kw']);
  });

  it("free the owner's unanswered invitations, not events another attendee left unanswered", () => {
    expect(busyUids({ ...DEFAULT_BUSY_RULES, unanswered: 'free' })).toEqual(ALL.filter((u) => u !== 'open'));
  });

  it('free titles containing a keyword, case-insensitively', () => {
    expect(busyUids({ ...DEFAULT_BUSY_RULES, free_keywords: ['focus'] })).toEqual(ALL.filter((u) => u !== 'kw'));
    expect(busyUids({ ...DEFAULT_BUSY_RULES, free_keywords: ['  '] })).toEqual(ALL);
  });

  it('never make a declined or cancelled event busy', () => {
    expect(busyUids({ all_day: 'busy', tentative: 'busy', unanswered: 'busy', free_keywords: [] })).not.toContain('declined');
  });

  it('read back from storage with defaults for anything missing or unknown', () => {
    expect(readBusyRules(null)).toEqual(DEFAULT_BUSY_RULES);
    expect(readBusyRules('not json')).toEqual(DEFAULT_BUSY_RULES);
    expect(readBusyRules('{"all_day":"free","tentative":"nope","free_keywords":[" hold ",3,""]}')).toEqual({ all_day: 'free', tentative: 'busy', unanswered: 'busy', free_keywords: ['hold'] });
    expect(isDefaultBusyRules(readBusyRules(null))).toBe(true);
    expect(isDefaultBusyRules({ ...DEFAULT_BUSY_RULES, free_keywords: ['x'] })).toBe(false);
  });
});

describe('event origin', () => {
  it('tells single events, series instances and overrides apart', () => {
    const series = cal(
      ev('one', 'DTSTART:20260302T090000Z', 'DTEND:20260302T100000Z', 'SUMMARY:One-off'),
      ev('weekly', 'DTSTART:20260302T120000Z', 'DTEND:20260302T130000Z', 'RRULE:FREQ=DAILY;COUNT=3', 'SUMMARY:Standup'),
      ev('weekly', 'RECURRENCE-ID:20260303T120000Z', 'DTSTART:20260303T150000Z', 'DTEND:20260303T160000Z', 'SUMMARY:Standup (moved)'),
    );
    const r = expandBusy(parseCalendar(series), { ownerZone: 'UTC', rangeStart: Date.parse('2026-03-01T00:00:00Z'), rangeEnd: Date.parse('2026-03-06T00:00:00Z') });
    expect(r.events.map((e) => [e.uid, new Date(e.start).toISOString().slice(5, 16), e.origin])).toEqual([
      ['one', '03-02T09:00', 'single'],
      ['weekly', '03-02T12:00', 'recurring'],
      ['weekly', '03-03T15:00', 'override'],
      ['weekly', '03-04T12:00', 'recurring'],
    ]);
  });
});
