/**
 * The iCalendar object of a confirmed meeting (issue 24), written by ical-generator: one VEVENT
 * with the owner as ORGANIZER and the visitor as ATTENDEE (PARTSTAT=NEEDS-ACTION, RSVP=TRUE),
 * DTSTART/DTEND as UTC date-times (RFC 5545 §3.3.5 form 2: no VTIMEZONE needed), a stable UID and
 * SEQUENCE (§3.8.7.4, raised by every change the attendee must see).
 *
 * - `method: 'REQUEST'` / `'CANCEL'`: the iTIP message (RFC 5546 §3.2.2 / §3.2.5) sent by e-mail as
 *   iMIP (RFC 6047); a CANCEL carries STATUS:CANCELLED and the same UID with SEQUENCE + 1.
 * - `method: 'PUBLISH'`: the copy the owner imports by hand (no writable calendar), RFC 5546 §3.2.1.
 * - `method: null`: the calendar resource stored on a CalDAV server (RFC 4791 §4.1 forbids METHOD
 *   there). Its ATTENDEE carries SCHEDULE-AGENT=CLIENT (RFC 6638 §7.1): Avail sends the invitation
 *   itself, so a scheduling server (iCloud, Fastmail) must not send a second one.
 */
import ical, {
  type ICalAttendeeScheduleAgent,
  ICalAttendeeRole, ICalAttendeeStatus, ICalAttendeeType, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';

interface MeetingPerson {
  email: string;
  name: string;
}

export interface Meeting {
  /** RFC 5545 UID, stable for the meeting's whole life. */
  uid: string;
  /** RFC 5545 SEQUENCE: 0 when first sent, + 1 for each revision (a cancel). */
  sequence: number;
  /** UTC epoch ms, half-open. */
  startMs: number;
  endMs: number;
  summary: string;
  /** The visitor's note ('' = no DESCRIPTION). */
  description: string;
  organizer: MeetingPerson;
  attendee: MeetingPerson;
  /** When this revision was made (DTSTAMP), UTC epoch ms. */
  stampMs: number;
}

/** A whole VCALENDAR text (CRLF lines, folded at 75 octets by ical-generator). */
export function meetingCalendar(meeting: Meeting, method: 'REQUEST' | 'CANCEL' | 'PUBLISH' | null): string {
  const calendar = ical({
    prodId: { company: 'Avail', product: 'Avail', language: 'EN' },
    ...(method ? { method: ICalCalendarMethod[method] } : {}),
  });
  calendar.createEvent({
    id: meeting.uid,
    sequence: meeting.sequence,
    stamp: new Date(meeting.stampMs),
    start: new Date(meeting.startMs),
    end: new Date(meeting.endMs),
    timezone: null,
    summary: meeting.summary,
    ...(meeting.description ? { description: meeting.description } : {}),
    status: method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: meeting.organizer.name, email: meeting.organizer.email },
    attendees: [
      {
        name: meeting.attendee.name,
        email: meeting.attendee.email,
        role: ICalAttendeeRole.REQ,
        type: ICalAttendeeType.INDIVIDUAL,
        status: ICalAttendeeStatus.NEEDSACTION,
        // A cancellation asks for no reply (RFC 5546 §3.2.5).
        rsvp: method !== 'CANCEL',
        ...(method === null ? { scheduleAgent: 'CLIENT' as ICalAttendeeScheduleAgent /* the enum is type-only in the build */ } : {}),
      },
    ],
  });
  return calendar.toString();
}
