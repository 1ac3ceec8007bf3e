import { Writable } from 'node:stream';
import ICAL from 'ical.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFormats } from '@avail/shared/i18n/formats.ts';
import { LANGUAGES } from '@avail/shared/i18n/languages.ts';
import { leafParts, parseMime, startSmtpCapture, type MimePart, type SmtpCapture } from '../../test/smtp-capture.ts';
import { meetingCalendar, meetingOf, type Meeting } from '../lib/meeting-ical.ts';
import { createMailer, type MailMessage, type Mailer } from './mailer.ts';
import {
  cancellationEmail,
  declineEmail,
  invitationEmail,
  ownerConfirmedEmail,
  publicDateUrl,
  type DeclineMailInput,
  type InvitationMailInput,
} from './proposal-mails.ts';

const START = Date.UTC(2026, 10, 24, 9); // Tue 24 Nov 2026 09:00 UTC
const END = Date.UTC(2026, 10, 24, 10);

const meeting: Meeting = {
  uid: '5f0c7c2e-1d2b-4c8e-9a51-7e0b1c2d3e4f@avail.example',
  sequence: 0,
  startMs: START,
  endMs: END,
  // Deliberately not the meeting's title either: SUMMARY comes from the people (lib/meeting-ical.ts meetingOf).
  summary: 'Someone Else / Nobody',
  description: 'About the <b>roadmap</b> & "budget"\nsecond line',
  // Deliberately wrong: the e-mail puts the owner and the visitor in.
  organizer: { name: 'Someone Else', email: 'else@example.net' },
  attendee: { name: 'Nobody', email: 'nobody@example.net' },
  stampMs: Date.UTC(2026, 10, 20, 8),
};

const invitation: InvitationMailInput = {
  meeting,
  ownerName: 'Olivia Owner',
  ownerEmail: 'olivia@owner.example',
  ownerTimezone: 'America/New_York',
  visitorName: 'Vera Visitor',
  visitorEmail: 'vera@visitor.example',
  visitorTimezone: 'Europe/Berlin',
  language: 'de',
};

/** Visitor data that must never reach a log line. */
const VISITOR_SECRETS = ['Vera Visitor', 'vera@visitor.example', 'roadmap', 'Vic Private', 'vic@private.example'];

let smtp: SmtpCapture;
let mailer: Mailer;
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpCapture();
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(String(chunk));
      cb();
    },
  });
  mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: 'Avail <no-reply@avail.test>' }, pino({ level: 'trace' }, stream));
});
afterAll(() => smtp.close());

/** Sends through the real SMTP capture and parses what arrived. */
async function deliver(message: MailMessage) {
  const index = smtp.messages.length;
  await mailer.send(message);
  const root = parseMime(await smtp.waitFor(index));
  const leaves = leafParts(root);
  const only = (mediaType: string) => {
    const found = leaves.filter((p) => p.mediaType === mediaType);
    return found;
  };
  return {
    root,
    header: (name: string) => root.headers.get(name),
    text: only('text/plain')[0]?.body ?? '',
    html: only('text/html')[0]?.body ?? '',
    calendarParts: only('text/calendar'),
    leaves,
  };
}

/** The calendar alternative of a multipart/alternative body (what clients show as an invitation). */
function calendarAlternative(root: MimePart): MimePart | undefined {
  const walk = (p: MimePart): MimePart | undefined => {
    if (p.mediaType === 'multipart/alternative') return p.parts.find((c) => c.mediaType === 'text/calendar');
    for (const c of p.parts) {
      const found = walk(c);
      if (found) return found;
    }
    return undefined;
  };
  return walk(root);
}

function vcalendar(content: string) {
  const cal = new ICAL.Component(ICAL.parse(content));
  const events = cal.getAllSubcomponents('vevent');
  return { cal, events, event: events[0] };
}

const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&#38;/g, '&'));

describe('invitation e-mail (iMIP REQUEST)', () => {
  it('goes to the visitor through SMTP with a text/calendar; method=REQUEST alternative that ical.js reads', async () => {
    const mail = await deliver(invitationEmail(invitation));
    expect(mail.header('to')).toBe('vera@visitor.example');
    expect(mail.header('reply-to')).toBe('olivia@owner.example');
    expect(mail.header('from')).toContain('no-reply@avail.test');

    const part = calendarAlternative(mail.root);
    expect(part, 'a text/calendar part inside multipart/alternative').toBeDefined();
    expect(part!.params.method).toBe('REQUEST');
    expect(part!.headers.get('content-type')).toMatch(/^text\/calendar;.*method=REQUEST/);

    const { cal, events, event } = vcalendar(part!.body);
    expect(cal.getFirstPropertyValue('method')).toBe('REQUEST');
    // Only the meeting: one VEVENT, nothing else of the owner's calendar.
    expect(events).toHaveLength(1);
    expect(event.getFirstPropertyValue('uid')).toBe(meeting.uid);
    expect(event.getFirstPropertyValue('sequence')).toBe(0);
    expect(event.getFirstPropertyValue('summary')).toBe('Olivia Owner & Vera Visitor');

    const organizer = event.getFirstProperty('organizer')!;
    expect(String(organizer.getFirstValue()).toLowerCase()).toBe('mailto:olivia@owner.example');
    expect(organizer.getParameter('cn')).toBe('Olivia Owner');
    const attendees = event.getAllProperties('attendee');
    expect(attendees).toHaveLength(1);
    expect(String(attendees[0].getFirstValue()).toLowerCase()).toBe('mailto:vera@visitor.example');
    expect(attendees[0].getParameter('partstat')).toBe('NEEDS-ACTION');
    expect(attendees[0].getParameter('rsvp')).toBe('TRUE');
    expect(attendees[0].getParameter('cn')).toBe('Vera Visitor');

    const dtstart = event.getFirstPropertyValue('dtstart') as ICAL.Time;
    const dtend = event.getFirstPropertyValue('dtend') as ICAL.Time;
    expect(dtstart.zone?.tzid).toBe('UTC');
    expect(dtstart.toJSDate().getTime()).toBe(START);
    expect(dtend.zone?.tzid).toBe('UTC');
    expect(dtend.toJSDate().getTime()).toBe(END);
    expect(part!.body).toMatch(/^DTSTART:20261124T090000Z\r?$/m);
    expect(part!.body).toMatch(/^DTEND:20261124T100000Z\r?$/m);
  });

  it('is written in German for a de visitor: both zones, the owner, the note (escaped in the HTML)', async () => {
    const mail = await deliver(invitationEmail(invitation));
    expect(mail.header('subject')).toMatch(/^Bestätigt: .+ mit Olivia Owner$/);
    expect(mail.text).toContain('Hallo Vera Visitor,');
    expect(mail.text).toContain('Olivia Owner hat die von Ihnen vorgeschlagene Zeit bestätigt. Ihr Termin ist gebucht.');
    // 09:00 UTC = 10:00 in Berlin, 04:00 in New York.
    expect(mail.text).toMatch(/10:00.*\(Ihre Zeit, Europe\/Berlin\)/);
    expect(mail.text).toMatch(/04:00.*\(Zeit von Olivia Owner, America\/New_York\)/);
    expect(mail.text).toContain('Mit: Olivia Owner (olivia@owner.example)');
    expect(mail.text).toContain('Ihre Nachricht:');
    expect(mail.text).toContain('About the <b>roadmap</b> & "budget"');
    expect(mail.text).toContain('Die Einladung ist angehängt');
    expect(mail.text).not.toMatch(/confirmed|your time/i);
    expect(mail.html).toContain('<div lang="de">');
    expect(mail.html).toContain('About the &#60;b&#62;roadmap&#60;/b&#62; &#38; &#34;budget&#34;');
    expect(mail.html).not.toContain('<b>roadmap');
  });

  it('is written in English for an en visitor, with one time line when both zones read the same', async () => {
    const mail = await deliver(invitationEmail({ ...invitation, language: 'en', visitorTimezone: 'America/Toronto', meeting: { ...meeting, description: '' } }));
    expect(mail.header('subject')).toMatch(/^Confirmed: .+ with Olivia Owner$/);
    expect(mail.text).toContain('Hi Vera Visitor,');
    expect(mail.text).toContain('Olivia Owner confirmed the time you proposed. Your meeting is booked.');
    expect(mail.text).toMatch(/4:00.*AM \(your time, America\/Toronto\)/);
    // Toronto and New York read the same: no second line.
    expect(mail.text).not.toContain("Olivia Owner's time");
    // No note, no note heading.
    expect(mail.text).not.toContain('Your note');
    expect(mail.text).toContain('Reply to this email to write to Olivia Owner.');
  });

  it('escapes every interpolated value in the HTML and keeps it raw in the text', async () => {
    const m = invitationEmail({ ...invitation, language: 'en', ownerName: 'O\'Brien <script>alert(1)</script>', visitorName: 'V & "Co"' });
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('O&#39;Brien &#60;script&#62;alert(1)&#60;/script&#62;');
    expect(m.html).toContain('Hi V &#38; &#34;Co&#34;,');
    expect(m.text).toContain("Hi V & \"Co\",");
    // A value that looks like a placeholder is not interpolated again.
    const n = invitationEmail({ ...invitation, language: 'en', visitorName: '{{name}}' });
    expect(n.text).toContain('Hi {{name}},');
  });

  it('has a real text in every language, no key left untranslated', () => {
    const subjects = new Set<string>();
    for (const language of LANGUAGES) {
      for (const m of [invitationEmail({ ...invitation, language }), cancellationEmail({ ...invitation, language, message: 'x' })]) {
        expect(m.text, language).not.toMatch(/mail\.\w+/);
        expect(m.html, language).not.toMatch(/mail\.\w+/);
        subjects.add(m.subject);
      }
    }
    expect(subjects.size).toBe(LANGUAGES.length * 2);
  });
});

describe('cancellation e-mail (iMIP CANCEL)', () => {
  it('carries METHOD:CANCEL with the same UID, the raised SEQUENCE and the owner message, in German', async () => {
    const mail = await deliver(cancellationEmail({ ...invitation, meeting: { ...meeting, sequence: 1 }, message: 'Leider krank.\nBis bald!' }));
    const part = calendarAlternative(mail.root);
    expect(part?.params.method).toBe('CANCEL');
    expect(part!.headers.get('content-type')).toMatch(/^text\/calendar;.*method=CANCEL/);
    const { cal, events, event } = vcalendar(part!.body);
    expect(cal.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(events).toHaveLength(1);
    expect(event.getFirstPropertyValue('uid')).toBe(meeting.uid);
    expect(event.getFirstPropertyValue('sequence')).toBe(1);
    expect(event.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(String(event.getFirstProperty('organizer')!.getFirstValue()).toLowerCase()).toBe('mailto:olivia@owner.example');
    expect(String(event.getFirstProperty('attendee')!.getFirstValue()).toLowerCase()).toBe('mailto:vera@visitor.example');
    expect((event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime()).toBe(START);

    expect(mail.header('subject')).toMatch(/^Abgesagt: .+ mit Olivia Owner$/);
    expect(mail.text).toContain('Olivia Owner hat Ihren Termin abgesagt.');
    expect(mail.text).toContain('Nachricht von Olivia Owner:');
    expect(mail.text).toContain('    Leider krank.\n    Bis bald!');
    expect(mail.header('reply-to')).toBe('olivia@owner.example');
  });

  it('says nothing of a message when there is none (English)', () => {
    const m = cancellationEmail({ ...invitation, language: 'en', meeting: { ...meeting, sequence: 3 }, message: '   ' });
    expect(m.text).toContain('Olivia Owner cancelled your meeting. It will not take place:');
    expect(m.text).not.toContain('Message from');
    expect(m.icalEvent?.method).toBe('CANCEL');
    expect(m.icalEvent?.content).toMatch(/^SEQUENCE:3\r?$/m);
  });
});

describe('one meeting whichever path writes it (lib/meeting-ical.ts meetingOf)', () => {
  /** The ORGANIZER and ATTENDEE of a VCALENDAR text as comparable values (every parameter, upper-cased names). */
  function people(content: string) {
    const { event } = vcalendar(content);
    const person = (p: ICAL.Property) => ({ value: String(p.getFirstValue()).toLowerCase(), params: p.toJSON()[1] as Record<string, unknown> });
    return { organizer: person(event.getFirstProperty('organizer')!), attendees: event.getAllProperties('attendee').map(person) };
  }
  // What proposal-decisions.service.ts writes to the calendar and attaches for the owner: meetingOf of the proposal.
  const written = meetingOf(meeting, { name: 'Olivia Owner', email: 'olivia@owner.example' }, { name: 'Vera Visitor', email: 'vera@visitor.example' });

  it('the invitation and cancellation carry the VEVENT the calendar write and the owner\'s .ics carry', () => {
    expect(invitationEmail(invitation).icalEvent?.content).toBe(meetingCalendar(written, 'REQUEST'));
    const raised = { ...written, sequence: 1 };
    expect(cancellationEmail({ ...invitation, meeting: raised, message: '' }).icalEvent?.content).toBe(meetingCalendar(raised, 'CANCEL'));
  });

  it('has the owner as ORGANIZER and the visitor as the one ATTENDEE (CN, mailto, PARTSTAT, RSVP) on every path', () => {
    const request = people(invitationEmail(invitation).icalEvent!.content);
    const stored = people(meetingCalendar(written, null)); // the CalDAV copy (caldav-writer.ts)
    const publish = people(meetingCalendar(written, 'PUBLISH')); // the owner's meeting.ics
    const cancel = people(cancellationEmail({ ...invitation, meeting: { ...meeting, sequence: 1 }, message: '' }).icalEvent!.content);
    const organizer = { value: 'mailto:olivia@owner.example', params: { cn: 'Olivia Owner' } };
    const attendee = { value: 'mailto:vera@visitor.example', params: { cn: 'Vera Visitor', role: 'REQ-PARTICIPANT', cutype: 'INDIVIDUAL', partstat: 'NEEDS-ACTION', rsvp: 'TRUE' } };
    expect(request).toEqual({ organizer, attendees: [attendee] });
    expect(publish).toEqual({ organizer, attendees: [attendee] });
    // A resource on a CalDAV server: Avail sends the invitation itself (RFC 6638 §7.1).
    expect(stored).toEqual({ organizer, attendees: [{ ...attendee, params: { ...attendee.params, 'schedule-agent': 'CLIENT' } }] });
    // A cancellation asks for no reply (RFC 5546 §3.2.5).
    expect(cancel).toEqual({ organizer, attendees: [{ ...attendee, params: { ...attendee.params, rsvp: 'FALSE' } }] });
    // The providers' own bodies (google-writer.ts, microsoft-writer.ts) read the same Meeting.
    expect(written.organizer).toEqual({ name: 'Olivia Owner', email: 'olivia@owner.example' });
    expect(written.attendee).toEqual({ name: 'Vera Visitor', email: 'vera@visitor.example' });
    expect(written.summary).toBe('Olivia Owner & Vera Visitor');
  });
});

describe('decline e-mail', () => {
  const decline: DeclineMailInput = {
    ownerName: 'Olivia Owner',
    ownerEmail: 'olivia@owner.example',
    visitorName: 'Vera Visitor',
    visitorEmail: 'vera@visitor.example',
    // UTC+13 in November: a window starting at 20:00 UTC is the next day for the visitor.
    visitorTimezone: 'Pacific/Auckland',
    language: 'de',
    start: START,
    end: END,
    message: 'Da bin ich unterwegs.',
    publicUrl: 'https://avail.example/olivia',
    nextWindows: [
      { start: Date.UTC(2026, 10, 25, 20), end: Date.UTC(2026, 10, 25, 21) },
      { start: Date.UTC(2026, 10, 26, 20), end: Date.UTC(2026, 10, 26, 22) },
      { start: Date.UTC(2026, 10, 27, 9), end: Date.UTC(2026, 10, 27, 10) },
      { start: Date.UTC(2026, 10, 30, 9), end: Date.UTC(2026, 10, 30, 10) },
    ],
  };

  it('lists the next three free windows in the visitor zone, each linking the page at its date in that zone, in German', async () => {
    const mail = await deliver(declineEmail(decline));
    expect(mail.calendarParts).toHaveLength(0);
    expect(mail.header('to')).toBe('vera@visitor.example');
    expect(mail.header('reply-to')).toBe('olivia@owner.example');
    expect(mail.header('subject')).toMatch(/^Nicht möglich: .+ mit Olivia Owner$/);
    expect(mail.text).toContain('Olivia Owner hat zu der von Ihnen vorgeschlagenen Zeit leider keine Zeit:');
    expect(mail.text).toContain('Nachricht von Olivia Owner:');
    expect(mail.text).toContain('Da bin ich unterwegs.');
    expect(mail.text).toContain('Das sind die nächsten freien Zeiten von Olivia Owner.');

    const dated = hrefs(mail.html).filter((h) => h.includes('?date='));
    expect(dated).toEqual([
      'https://avail.example/olivia?date=2026-11-26',
      'https://avail.example/olivia?date=2026-11-27',
      'https://avail.example/olivia?date=2026-11-27',
    ]);
    expect(hrefs(mail.html)).toContain('https://avail.example/olivia');
    for (const url of dated) expect(mail.text).toContain(url);
    expect(mail.text).not.toContain('2026-12-01');

    // Times in the visitor's zone (09:00 UTC on the 24th = 22:00 in Auckland; 20:00 UTC = 09:00 next day).
    const f = createFormats({ locale: 'de' });
    expect(mail.text).toContain(f.instantRange(START, END, 'Pacific/Auckland'));
    expect(mail.text).toMatch(/22:00/);
    expect(mail.text).toContain(f.instantRange(decline.nextWindows[0].start, decline.nextWindows[0].end, 'Pacific/Auckland'));
    expect(mail.text).toMatch(/09:00/);
    expect(mail.text).toMatch(/\(Ihre Zeit, Pacific\/Auckland\)/);
  });

  it('says kindly that there is no free time yet, with the link to the page (English, no message)', async () => {
    const mail = await deliver(declineEmail({ ...decline, language: 'en', message: '', nextWindows: [] }));
    expect(mail.text).toContain('Olivia Owner has no free times in the coming weeks. Please have a look at the page again later:');
    expect(mail.text).toContain("Olivia Owner's availability page\n    https://avail.example/olivia");
    expect(mail.text).not.toContain('?date=');
    expect(mail.text).not.toContain('Message from');
    expect(hrefs(mail.html)).toEqual(['https://avail.example/olivia']);
  });

  it('keeps a personal link’s query when adding the date', () => {
    expect(publicDateUrl('https://avail.example/olivia?key=abc', '2026-11-26')).toBe('https://avail.example/olivia?key=abc&date=2026-11-26');
  });
});

describe("owner's confirmation receipt", () => {
  const base = {
    to: 'olivia@owner.example',
    ownerName: 'Olivia Owner',
    ownerTimezone: 'Europe/Brussels',
    visitorName: 'Vera Visitor',
    visitorEmail: 'vera@visitor.example',
    start: START,
    end: END,
  };

  it('names the calendar the meeting went to, with no attachment', async () => {
    const mail = await deliver(ownerConfirmedEmail({ ...base, calendarName: 'Work', ics: null }));
    expect(mail.header('subject')).toBe('You confirmed a meeting: Tue 24 Nov, 10:00–11:00');
    expect(mail.header('reply-to')).toBe('vera@visitor.example');
    expect(mail.text).toContain('You confirmed your meeting with Vera Visitor (vera@visitor.example):');
    expect(mail.text).toContain('Tue 24 Nov, 10:00–11:00 (your time, Europe/Brussels)');
    expect(mail.text).toContain('It is in your calendar “Work”.');
    expect(mail.calendarParts).toHaveLength(0);
  });

  it('attaches meeting.ics (text/calendar; method=PUBLISH: a copy to import, not an invitation to its own organizer) when the owner has no writable calendar', async () => {
    const ics = meetingCalendar(meeting, 'PUBLISH');
    const mail = await deliver(ownerConfirmedEmail({ ...base, calendarName: null, ics }));
    expect(mail.text).toContain('The meeting is attached as meeting.ics: open it to add the meeting to your calendar.');
    expect(mail.text).not.toContain('It is in your calendar');
    const attachment = mail.leaves.find((p) => /filename="?meeting\.ics"?/.test(p.headers.get('content-disposition') ?? ''));
    expect(attachment).toBeDefined();
    expect(attachment!.mediaType).toBe('text/calendar');
    expect(attachment!.params.method).toBe('PUBLISH');
    expect(attachment!.headers.get('content-disposition')).toMatch(/^attachment/);
    const { event } = vcalendar(attachment!.body);
    expect(attachment!.body).toContain('METHOD:PUBLISH');
    expect(event.getFirstPropertyValue('uid')).toBe(meeting.uid);
    // Not an iMIP invitation to the owner: no calendar alternative.
    expect(calendarAlternative(mail.root)).toBeUndefined();
  });
});

describe('logs', () => {
  it('the SMTP mailer logged no visitor data for any of these messages', () => {
    expect(logLines.join('')).toContain('mail sent');
    const log = logLines.join('');
    for (const secret of VISITOR_SECRETS) expect(log).not.toContain(secret);
  });

  it('the log mailer (no SMTP_URL) withholds recipient, body, calendar and attachments of personal messages', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const logMailer = createMailer({ SMTP_URL: undefined, MAIL_FROM: 'Avail <no-reply@localhost>' }, pino({ level: 'trace' }, stream));
    const secretInvitation = { ...invitation, visitorName: 'Vic Private', visitorEmail: 'vic@private.example' };
    await logMailer.send(invitationEmail(secretInvitation));
    await logMailer.send(cancellationEmail({ ...secretInvitation, message: 'm' }));
    await logMailer.send(declineEmail({ ...secretInvitation, start: START, end: END, message: '', publicUrl: 'https://avail.example/o', nextWindows: [] }));
    await logMailer.send(ownerConfirmedEmail({ to: 'o@example.com', ownerName: 'O', ownerTimezone: 'UTC', visitorName: 'Vic Private', visitorEmail: 'vic@private.example', start: START, end: END, calendarName: null, ics: 'BEGIN:VCALENDAR' }));
    const log = lines.join('');
    expect(lines).toHaveLength(4);
    expect(log).toContain('Bestätigt:');
    for (const secret of [...VISITOR_SECRETS, 'BEGIN:VCALENDAR', 'roadmap']) expect(log).not.toContain(secret);
  });
});
