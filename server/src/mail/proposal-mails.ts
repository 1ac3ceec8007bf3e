/**
 * The e-mails of a proposal's life after the owner decides (issue 24), as pure functions returning
 * a `MailMessage` (mailer.ts sends it):
 *
 * - to the visitor, in the visitor's language (`shared/src/i18n/messages/*.ts`, section `mail`;
 *   dates and times through `Intl` in that language, `shared/src/i18n/formats.ts`):
 *   `invitationEmail` (the confirmed meeting, an iTIP REQUEST), `cancellationEmail` (an iTIP
 *   CANCEL), `declineEmail` (the next free times, as links to the public page);
 * - to the owner, in English: `ownerConfirmedEmail` (where the meeting went, or the .ics attached).
 *
 * iMIP (RFC 6047): the iTIP message (RFC 5546) travels as the `text/calendar; method=…` part of a
 * multipart/alternative body beside the readable text and HTML (RFC 6047 §2.4: the part's `method`
 * parameter equals the VCALENDAR's METHOD), which nodemailer builds from `icalEvent`. The
 * VCALENDAR always comes from `meetingCalendar` (lib/meeting-ical.ts, ical-generator), never from
 * text built here. Avail sends from MAIL_FROM with Reply-To the owner, the owner being the
 * ORGANIZER (RFC 6047 §3.1 leaves matching the sender to the receiving client).
 *
 * Every message is `personal` (it carries the visitor's name, address or note, or goes to the
 * visitor): no mailer logs its recipient or body, and no subject carries the visitor's data.
 * Translated sentences are whole keys with `{{name}}` values, never joined pieces; in the HTML every
 * interpolated value is escaped (`htmlT`). Instants are UTC epoch ms; zones are IANA names.
 * Nothing here sees the owner's other events: only the meeting's own fields are inputs.
 */
import type { TFunction } from 'i18next';
import { createFormats, plainDateIn, type Formats } from '@avail/shared/i18n/formats.ts';
import type { Language } from '@avail/shared/i18n/languages.ts';
import { serverT } from '@avail/shared/i18n/messages/all-messages.ts';
import { meetingCalendar, meetingOf, type Meeting, type MeetingCore } from '../lib/meeting-ical.ts';
import { esc, formatTimeRange, type MailMessage } from './mailer.ts';

/** The people and languages of a confirmed meeting (invitation and cancellation). */
export interface InvitationMailInput {
  /**
   * The meeting as confirmed (UID, SEQUENCE, UTC ms start/end, the visitor's note as description,
   * DTSTAMP). Its people and SUMMARY are the owner and visitor below, through lib/meeting-ical.ts
   * meetingOf like the calendar's copy (a whole Meeting may be passed: its summary, organizer and
   * attendee are not read).
   */
  meeting: MeetingCore;
  ownerName: string;
  /** The ORGANIZER's address and the e-mail's Reply-To. */
  ownerEmail: string;
  /** IANA zone of the owner (the second time line, when it reads differently). */
  ownerTimezone: string;
  visitorName: string;
  /** The recipient and the ATTENDEE. */
  visitorEmail: string;
  /** IANA zone of the visitor: the first time line and the subject's time. */
  visitorTimezone: string;
  /** The visitor's language: every text and date of the e-mail. */
  language: Language;
}

/** A cancellation: the invitation's input (with `meeting.sequence` already raised by the caller) and the owner's message ('' none). */
export type CancellationMailInput = InvitationMailInput & { message: string };

/** A declined proposal (no meeting exists, so no calendar part). */
export interface DeclineMailInput {
  ownerName: string;
  /** Reply-To. */
  ownerEmail: string;
  visitorName: string;
  /** The recipient. */
  visitorEmail: string;
  /** IANA zone of the visitor: every time shown and every link's date. */
  visitorTimezone: string;
  language: Language;
  /** The declined time, UTC ms, half-open. */
  start: number;
  end: number;
  /** The owner's message ('' none). */
  message: string;
  /** The owner's public page (absolute URL, the link the visitor used); `?date=` is added per window. */
  publicUrl: string;
  /** The owner's next free windows (UTC ms, soonest first); the first three are listed. */
  nextWindows: Array<{ start: number; end: number }>;
}

/** The owner's receipt of a confirmation. */
export interface OwnerConfirmedMailInput {
  /** The owner's address. */
  to: string;
  ownerName: string;
  ownerTimezone: string;
  visitorName: string;
  /** Reply-To. */
  visitorEmail: string;
  /** UTC ms, half-open. */
  start: number;
  end: number;
  /** The calendar the meeting was written to, or null. */
  calendarName: string | null;
  /** When the owner has no writable calendar: the meeting's VCALENDAR (`meetingCalendar(…, 'PUBLISH')`: a copy to import, RFC 5546 §3.2.1), attached as meeting.ics; else null. */
  ics: string | null;
}

/** How many free windows a decline lists. */
const DECLINE_WINDOWS = 3;

type Vars = Record<string, string>;

/**
 * `t(key, vars)` as HTML: the translated text and every value escaped separately, so a value can
 * neither inject markup nor be taken for a placeholder. Values go in as private-use markers that
 * survive escaping, then are swapped for their escaped text in one pass (never re-scanned).
 */
function htmlT(t: TFunction, key: string, vars: Vars = {}): string {
  const names = Object.keys(vars);
  const marked = Object.fromEntries(names.map((n, i) => [n, `\uE000${i}\uE001`]));
  return esc(t(key, marked)).replace(/\uE000(\d+)\uE001/g, (_m, i: string) => esc(vars[names[Number(i)]]));
}

/** A body written once and rendered twice: plain text (paragraphs apart by a blank line) and HTML. */
class MailBody {
  private readonly text: string[] = [];
  private readonly html: string[] = [];

  constructor(
    private readonly t: TFunction,
    private readonly language: string,
  ) {}

  /** One translated sentence as a paragraph. */
  say(key: string, vars: Vars = {}): this {
    this.text.push(this.t(key, vars));
    this.html.push(`<p>${htmlT(this.t, key, vars)}</p>`);
    return this;
  }

  /** A list of translated lines (indented in the text). */
  list(items: Array<{ key: string; vars: Vars }>): this {
    this.text.push(items.map((i) => `    ${this.t(i.key, i.vars)}`).join('\n'));
    this.html.push(`<ul>${items.map((i) => `<li>${htmlT(this.t, i.key, i.vars)}</li>`).join('')}</ul>`);
    return this;
  }

  /** Someone's own words, quoted as written (line breaks kept). */
  quote(words: string): this {
    this.text.push(words.split(/\r?\n/).map((l) => `    ${l}`).join('\n'));
    this.html.push(`<blockquote style="white-space:pre-wrap;margin:0 0 0 12px;padding-left:12px;border-left:3px solid #d1d5db">${esc(words)}</blockquote>`);
    return this;
  }

  /** Links: the label with the URL on the next line in the text, anchors in the HTML. */
  links(items: Array<{ label: string; url: string }>): this {
    this.text.push(items.map((i) => `    ${i.label}\n    ${i.url}`).join('\n'));
    this.html.push(`<ul>${items.map((i) => `<li><a href="${esc(i.url)}">${esc(i.label)}</a></li>`).join('')}</ul>`);
    return this;
  }

  render(): { text: string; html: string } {
    return { text: `${this.text.join('\n\n')}\n`, html: `<div lang="${esc(this.language)}">\n${this.html.join('\n')}\n</div>` };
  }
}

/** The formats of a visitor's language (their texts' locale; 12/24 h as the language writes it). */
function visitorFormats(language: Language): Formats {
  return createFormats({ locale: language });
}

/** The time lines of a meeting: the visitor's zone, then the owner's when it reads differently. */
function timeLines(f: Formats, start: number, end: number, visitorTimezone: string, owner?: { name: string; timezone: string }) {
  const yours = f.instantRange(start, end, visitorTimezone);
  const lines: Array<{ key: string; vars: Vars }> = [{ key: 'mail.yourTime', vars: { when: yours, zone: visitorTimezone } }];
  if (owner) {
    const theirs = f.instantRange(start, end, owner.timezone);
    if (theirs !== yours) lines.push({ key: 'mail.hostTime', vars: { when: theirs, name: owner.name, zone: owner.timezone } });
  }
  return { yours, lines };
}

/** The meeting of `p` (lib/meeting-ical.ts meetingOf): the owner ORGANIZER, the visitor ATTENDEE, as on the calendar's copy. */
function invitedMeeting(p: InvitationMailInput): Meeting {
  return meetingOf(p.meeting, { name: p.ownerName, email: p.ownerEmail }, { name: p.visitorName, email: p.visitorEmail });
}

/**
 * The invitation to the visitor once the owner confirms (issue 24), in `p.language`.
 *
 * To `visitorEmail`, Reply-To `ownerEmail`; subject `Confirmed: <time in the visitor's zone> with
 * <owner>`; the text and HTML say what (`meeting.summary`), when (the visitor's zone, and the
 * owner's when it reads differently), with whom (the owner's name and address), the visitor's note
 * (`meeting.description`, when not empty) and that the invitation is attached.
 *
 * `icalEvent`: METHOD:REQUEST (RFC 5546 §3.2.2) from `meetingCalendar` — one VEVENT, the meeting's
 * UID and SEQUENCE (RFC 5545 §3.8.4.7, §3.8.7.4), DTSTART/DTEND in UTC, ORGANIZER the owner,
 * ATTENDEE the visitor with PARTSTAT=NEEDS-ACTION and RSVP=TRUE; sent as iMIP (RFC 6047 §2.4).
 * A reply the visitor's client sends goes to the ORGANIZER, i.e. the owner.
 */
export function invitationEmail(p: InvitationMailInput): MailMessage {
  const t = serverT(p.language);
  const f = visitorFormats(p.language);
  const meeting = invitedMeeting(p);
  const { yours, lines } = timeLines(f, meeting.startMs, meeting.endMs, p.visitorTimezone, { name: p.ownerName, timezone: p.ownerTimezone });
  const note = meeting.description.trim();
  const body = new MailBody(t, p.language)
    .say('mail.greeting', { name: p.visitorName })
    .say('mail.invitation.intro', { name: p.ownerName })
    .say('mail.invitation.what', { summary: meeting.summary })
    .say('mail.invitation.when')
    .list(lines)
    .say('mail.invitation.with', { name: p.ownerName, email: p.ownerEmail });
  if (note) body.say('mail.invitation.note').quote(note);
  body.say('mail.invitation.calendar').say('mail.replyTo', { name: p.ownerName }).say('mail.signature', { name: p.ownerName });
  return {
    to: p.visitorEmail,
    replyTo: p.ownerEmail,
    subject: t('mail.invitation.subject', { when: yours, name: p.ownerName }),
    ...body.render(),
    icalEvent: { method: 'REQUEST', content: meetingCalendar(meeting, 'REQUEST') },
    personal: true,
  };
}

/**
 * The cancellation to the visitor when the owner cancels a confirmed meeting (issue 24), in
 * `p.language`. To `visitorEmail`, Reply-To `ownerEmail`; subject `Cancelled: <time in the
 * visitor's zone> with <owner>`; the body names the cancelled time (both zones as in the
 * invitation) and quotes the owner's `message` when it is not empty.
 *
 * `icalEvent`: METHOD:CANCEL (RFC 5546 §3.2.5) with STATUS:CANCELLED, the invitation's UID and the
 * SEQUENCE in `p.meeting.sequence` — the caller passes the invitation's sequence + 1, so the
 * visitor's calendar applies it over the REQUEST it holds (RFC 5546 §2.1.5).
 */
export function cancellationEmail(p: CancellationMailInput): MailMessage {
  const t = serverT(p.language);
  const f = visitorFormats(p.language);
  const meeting = invitedMeeting(p);
  const { yours, lines } = timeLines(f, meeting.startMs, meeting.endMs, p.visitorTimezone, { name: p.ownerName, timezone: p.ownerTimezone });
  const message = p.message.trim();
  const body = new MailBody(t, p.language)
    .say('mail.greeting', { name: p.visitorName })
    .say('mail.cancellation.intro', { name: p.ownerName })
    .list(lines);
  if (message) body.say('mail.messageFrom', { name: p.ownerName }).quote(message);
  body.say('mail.cancellation.calendar').say('mail.replyTo', { name: p.ownerName }).say('mail.signature', { name: p.ownerName });
  return {
    to: p.visitorEmail,
    replyTo: p.ownerEmail,
    subject: t('mail.cancellation.subject', { when: yours, name: p.ownerName }),
    ...body.render(),
    icalEvent: { method: 'CANCEL', content: meetingCalendar(meeting, 'CANCEL') },
    personal: true,
  };
}

/** `publicUrl` with `date=YYYY-MM-DD` set (any other query kept, e.g. a personal link's key). */
export function publicDateUrl(publicUrl: string, date: string): string {
  const url = new URL(publicUrl);
  url.searchParams.set('date', date);
  return url.toString();
}

/**
 * The visitor's answer when the owner declines a proposal (issue 24), in `p.language`. No calendar
 * part: nothing was ever sent to the visitor's calendar. To `visitorEmail`, Reply-To `ownerEmail`;
 * subject `Not available: <declined time in the visitor's zone> with <owner>`. The body names the
 * declined time, quotes the owner's `message` when not empty, and lists the first three of
 * `nextWindows`, each in the visitor's zone and linking `publicDateUrl(publicUrl, date)` where the
 * date is the window's start day in the VISITOR's zone; with no windows it says so and links the
 * page. The page itself is linked in both cases.
 */
export function declineEmail(p: DeclineMailInput): MailMessage {
  const t = serverT(p.language);
  const f = visitorFormats(p.language);
  const { yours, lines } = timeLines(f, p.start, p.end, p.visitorTimezone);
  const message = p.message.trim();
  const pageLink = { label: t('mail.decline.page', { name: p.ownerName }), url: p.publicUrl };
  const body = new MailBody(t, p.language)
    .say('mail.greeting', { name: p.visitorName })
    .say('mail.decline.intro', { name: p.ownerName })
    .list(lines);
  if (message) body.say('mail.messageFrom', { name: p.ownerName }).quote(message);
  const windows = p.nextWindows.slice(0, DECLINE_WINDOWS);
  if (windows.length) {
    body.say('mail.decline.next', { name: p.ownerName }).links(
      windows.map((w) => ({ label: f.instantRange(w.start, w.end, p.visitorTimezone), url: publicDateUrl(p.publicUrl, plainDateIn(w.start, p.visitorTimezone)) })),
    );
    body.links([pageLink]);
  } else {
    body.say('mail.decline.none', { name: p.ownerName }).links([pageLink]);
  }
  body.say('mail.replyTo', { name: p.ownerName }).say('mail.signature', { name: p.ownerName });
  return {
    to: p.visitorEmail,
    replyTo: p.ownerEmail,
    subject: t('mail.decline.subject', { when: yours, name: p.ownerName }),
    ...body.render(),
    personal: true,
  };
}

/**
 * The owner's receipt of a confirmation (issue 24), in English like every owner e-mail. To `to`,
 * Reply-To the visitor; subject `You confirmed a meeting: <time in the owner's zone>` (no visitor
 * data in subjects). The body: `You confirmed your meeting with <visitor> (<address>):`, the time in
 * the owner's zone (`formatTimeRange`), then either — when `ics` is given (no writable calendar) —
 * the .ics attached as `meeting.ics` (`text/calendar; charset=utf-8; method=REQUEST`) with a
 * sentence to open it, or `It is in your calendar “<calendarName>”.`
 */
export function ownerConfirmedEmail(p: OwnerConfirmedMailInput): MailMessage {
  const when = formatTimeRange(p.ownerTimezone, p.start, p.end);
  const where = p.ics
    ? 'The meeting is attached as meeting.ics: open it to add the meeting to your calendar.'
    : p.calendarName
      ? `It is in your calendar “${p.calendarName}”.`
      : null;
  const text = [
    `Hi ${p.ownerName},`,
    '',
    `You confirmed your meeting with ${p.visitorName} (${p.visitorEmail}):`,
    '',
    `    ${when} (your time, ${p.ownerTimezone})`,
    '',
    ...(where ? [where, ''] : []),
    `${p.visitorName} gets the invitation by e-mail. Reply to this e-mail to write to ${p.visitorName}.`,
    '',
    '— Avail',
    '',
  ].join('\n');
  const html = `<p>Hi ${esc(p.ownerName)},</p>
<p>You confirmed your meeting with ${esc(p.visitorName)} (<a href="mailto:${esc(p.visitorEmail)}">${esc(p.visitorEmail)}</a>):</p>
<ul><li><strong>${esc(when)}</strong> (your time, ${esc(p.ownerTimezone)})</li></ul>
${where ? `<p>${esc(where)}</p>\n` : ''}<p>${esc(p.visitorName)} gets the invitation by e-mail. Reply to this e-mail to write to ${esc(p.visitorName)}.</p>
<p>— Avail</p>`;
  return {
    to: p.to,
    replyTo: p.visitorEmail,
    subject: `You confirmed a meeting: ${when}`,
    text,
    html,
    ...(p.ics ? { attachments: [{ filename: 'meeting.ics', content: p.ics, contentType: 'text/calendar; charset=utf-8; method=PUBLISH' }] } : {}),
    personal: true,
  };
}

/** Input of {@link ownerCancelledEmail}: the receipt's fields; `ics` the METHOD:CANCEL object (same UID, SEQUENCE + 1). */
export type OwnerCancelledMailInput = Omit<OwnerConfirmedMailInput, 'calendarName' | 'ics'> & { ics: string };

/**
 * The owner's receipt of a cancelled meeting that was in no connected calendar (they added the
 * confirmation's meeting.ics by hand): English, the cancellation attached as `cancel.ics`
 * (RFC 5546 §3.2.5 METHOD:CANCEL, same UID, SEQUENCE + 1) so their calendar app removes it.
 */
export function ownerCancelledEmail(p: OwnerCancelledMailInput): MailMessage {
  const when = formatTimeRange(p.ownerTimezone, p.start, p.end);
  const text = [
    `Hi ${p.ownerName},`,
    '',
    `You cancelled your meeting with ${p.visitorName} (${p.visitorEmail}):`,
    '',
    `    ${when} (your time, ${p.ownerTimezone})`,
    '',
    'If you added it to your calendar from meeting.ics, open the attached cancel.ics to remove it.',
    `${p.visitorName} gets the cancellation by e-mail.`,
    '',
    '— Avail',
    '',
  ].join('\n');
  const html = `<p>Hi ${esc(p.ownerName)},</p>
<p>You cancelled your meeting with ${esc(p.visitorName)} (<a href="mailto:${esc(p.visitorEmail)}">${esc(p.visitorEmail)}</a>):</p>
<ul><li><strong>${esc(when)}</strong> (your time, ${esc(p.ownerTimezone)})</li></ul>
<p>If you added it to your calendar from meeting.ics, open the attached cancel.ics to remove it. ${esc(p.visitorName)} gets the cancellation by e-mail.</p>
<p>— Avail</p>`;
  return {
    to: p.to,
    replyTo: p.visitorEmail,
    subject: `You cancelled a meeting: ${when}`,
    text,
    html,
    attachments: [{ filename: 'cancel.ics', content: p.ics, contentType: 'text/calendar; charset=utf-8; method=CANCEL' }],
    personal: true,
  };
}
