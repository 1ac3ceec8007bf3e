/**
 * Outgoing e-mail. With SMTP_URL: nodemailer over SMTP. Without: the whole message (including a
 * verification code) is written to the log at info level, so the embedded default works with no
 * mail server — the operator reads the code from the server log. Messages marked `personal` (a
 * visitor's proposal, every e-mail to a visitor) are logged with their subject only.
 */
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { getIanaZone, instantToLocal } from '@avail/shared/domain/zone-time.ts';
import type { Config } from '../config.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Reply-To address (a single plain address, sent as-is: never parsed as a list). */
  replyTo?: string;
  /**
   * True when the message carries a visitor's personal data (name, e-mail, note) or goes to a
   * visitor: both mailers then log the subject only — never the recipient, body, Reply-To, calendar
   * or attachments. The subject of such a message must therefore never carry the visitor's data.
   */
  personal?: boolean;
  /**
   * An iTIP message sent as iMIP (RFC 6047 §2.4): a whole VCALENDAR whose METHOD is `method`
   * (RFC 5546 §3.2.2 REQUEST, §3.2.5 CANCEL). nodemailer adds it as the `text/calendar;
   * charset=utf-8; method=…` part of the multipart/alternative body (what calendar clients read to
   * show Accept/Decline) and as an `invite.ics` attachment.
   */
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; content: string };
  /** Files attached as they are (`content` text, sent base64). */
  attachments?: Array<{ filename: string; content: string; contentType: string }>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Mailer for this config: SMTP when SMTP_URL is set, the log otherwise. */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>, logger: Logger): Mailer {
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    return {
      async send(message) {
        const { replyTo, personal: _personal, icalEvent, attachments, ...rest } = message;
        await transport.sendMail({
          from: config.MAIL_FROM,
          ...rest,
          // An address object: nodemailer never splits it into several recipients.
          ...(replyTo ? { replyTo: { name: '', address: replyTo } } : {}),
          ...(icalEvent ? { icalEvent: { method: icalEvent.method, content: icalEvent.content } } : {}),
          ...(attachments?.length
            ? { attachments: attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })) }
            : {}),
        });
        // Never the subject or body: a verification e-mail's subject carries the code. Nor the
        // recipient of a personal message: it may be the visitor.
        logger.info(message.personal ? { personal: true } : { to: message.to }, 'mail sent');
      },
    };
  }
  return {
    async send(message) {
      if (message.personal) {
        logger.info(
          { mail: { from: config.MAIL_FROM, subject: message.subject, personal: true } },
          `mail (no SMTP_URL set, not sent; recipient and body withheld: they carry a visitor's personal data): ${message.subject}`,
        );
        return;
      }
      // The text only: a calendar or an attachment is named, never written out.
      const extras = [
        ...(message.icalEvent ? [`calendar ${message.icalEvent.method}`] : []),
        ...(message.attachments ?? []).map((a) => `attachment ${a.filename}`),
      ];
      logger.info(
        { mail: { from: config.MAIL_FROM, to: message.to, subject: message.subject, text: message.text, ...(extras.length ? { extras } : {}) } },
        `mail (no SMTP_URL set, logged instead of sent) to ${message.to}: ${message.subject}\n${message.text}`,
      );
    },
  };
}

/** Mailer that keeps messages in memory (tests). */
export function createOutboxMailer(): Mailer & { outbox: MailMessage[] } {
  const outbox: MailMessage[] = [];
  return {
    outbox,
    async send(message) {
      outbox.push(message);
    },
  };
}

/** HTML-escapes text for the e-mail bodies (text and attribute values). */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A mail carrying a one-time code: greeting, what it is for, the code set large, a prefilled link,
 * the expiry and what to do when the reader did not ask for it. Text and HTML say the same.
 */
function codeEmail(opts: {
  to: string;
  name: string;
  subject: string;
  intro: string;
  code: string;
  howTo: string;
  link: string;
  linkLabel: string;
  ttlMinutes: number;
  ignoreLine: string;
}): MailMessage {
  const expiry = `The code expires in ${opts.ttlMinutes} minutes. ${opts.ignoreLine}`;
  const text = [`Hi ${opts.name},`, '', opts.intro, '', `    ${opts.code}`, '', opts.howTo, opts.link, '', expiry, '', '— Avail'].join('\n');
  const html = `<p>Hi ${esc(opts.name)},</p>
<p>${esc(opts.intro)}</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${esc(opts.code)}</p>
<p><a href="${esc(opts.link)}">${esc(opts.linkLabel)}</a></p>
<p>${esc(expiry)}</p>
<p>— Avail</p>`;
  return { to: opts.to, subject: opts.subject, text, html };
}

/** Input of a one-time-code mail: recipient, display name, the code, the app origin, the code's lifetime in minutes. */
export interface CodeMailInput {
  to: string;
  name: string;
  code: string;
  publicBaseUrl: string;
  ttlMinutes: number;
}

/** The verification e-mail: friendly, names Avail, carries the 6-digit code and a prefilled link. */
export function verificationEmail(opts: CodeMailInput): MailMessage {
  return codeEmail({
    ...opts,
    subject: `Your Avail verification code: ${opts.code}`,
    intro: 'Welcome to Avail! Your verification code is:',
    howTo: 'Enter it on the verification screen, or open this link to verify right away:',
    link: `${opts.publicBaseUrl}/verify-email?email=${encodeURIComponent(opts.to)}&code=${encodeURIComponent(opts.code)}`,
    linkLabel: 'Verify my e-mail',
    ignoreLine: 'If you did not create an Avail account, you can ignore this e-mail.',
  });
}

/**
 * The password-reset e-mail: the 6-digit code and a link to /forgot-password prefilled with the
 * address and the code (`${publicBaseUrl}/forgot-password?email=<urlencoded>&code=<code>`).
 * The subject does not carry the code.
 */
export function passwordResetEmail(opts: CodeMailInput): MailMessage {
  return codeEmail({
    ...opts,
    subject: 'Reset your Avail password',
    intro: 'Someone (hopefully you) asked to reset the password of your Avail account. Your reset code is:',
    howTo: 'Enter it on the reset screen, or open this link to choose a new password:',
    link: `${opts.publicBaseUrl}/forgot-password?email=${encodeURIComponent(opts.to)}&code=${encodeURIComponent(opts.code)}`,
    linkLabel: 'Choose a new password',
    ignoreLine: 'If you did not ask for a reset, you can ignore this e-mail: your password stays the same.',
  });
}

/**
 * The "failed sign-in attempts" e-mail (issue 12): sent once when the per-account login throttle
 * first locks an account. Says how many wrong passwords, when (UTC), that the password is
 * unchanged, and how to reset it; carries no IP address or location.
 */
export function loginLockedEmail(opts: { to: string; name: string; failures: number; at: number; lockMinutes: number; publicBaseUrl: string }): MailMessage {
  const when = new Date(opts.at).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  const reset = `${opts.publicBaseUrl}/forgot-password?email=${encodeURIComponent(opts.to)}`;
  const lines = [
    `Hi ${opts.name},`,
    `There were ${opts.failures} failed sign-in attempts on your Avail account in a row (the last at ${when}).`,
    `Sign-in is paused for a while after repeated failures (at most 15 minutes at a time); your password has not been changed.`,
    `If this was you, wait a moment and try again. If it was not, choose a new password: ${reset}`,
    '— Avail',
  ];
  const esc = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return {
    to: opts.to,
    subject: 'Failed sign-in attempts on your Avail account',
    text: lines.join('\n\n'),
    html: lines.map((l) => `<p>${esc(l).replace(esc(reset), `<a href="${esc(reset)}">${esc(reset)}</a>`)}</p>`).join('\n'),
  };
}

/** Inline style of a link drawn as a button (e-mail clients drop style sheets); the colour is added per button. */
const BUTTON_STYLE = 'display:inline-block;padding:10px 20px;border-radius:6px;font-weight:bold;text-decoration:none';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * `[start, end)` (UTC ms) as local time in the IANA `zone`, 24-hour clock:
 * `Tue 24 Nov, 10:00–10:30`, or `Tue 24 Nov, 22:00 – Wed 25 Nov, 02:00` across midnight.
 */
export function formatTimeRange(zone: string, start: number, end: number): string {
  const tz = getIanaZone(zone);
  const a = instantToLocal(tz, start);
  const b = instantToLocal(tz, end);
  const day = (f: typeof a) => {
    const weekday = WEEKDAYS[(new Date(Date.UTC(f.y, f.m - 1, f.d)).getUTCDay() + 6) % 7];
    return `${weekday} ${f.d} ${MONTHS[f.m - 1]}`;
  };
  const time = (f: typeof a) => `${String(f.h).padStart(2, '0')}:${String(f.mi).padStart(2, '0')}`;
  if (day(a) === day(b)) return `${day(a)}, ${time(a)}–${time(b)}`;
  // An end at local midnight reads as 24:00 of the start day rather than 00:00 of the next.
  if (b.h === 0 && b.mi === 0 && day(instantToLocal(tz, end - 60_000)) === day(a)) return `${day(a)}, ${time(a)}–24:00`;
  return `${day(a)}, ${time(a)} – ${day(b)}, ${time(b)}`;
}

/**
 * The e-mail telling the owner a visitor proposed a time (issue 4). To the owner, Reply-To the
 * visitor; subject `New time proposed: Tue 24 Nov, 10:00–10:30` in the owner's zone. The body gives
 * the time in the owner's zone and — when it reads differently — in the visitor's zone, the visitor's
 * name, e-mail and note, says that nothing is booked until the owner confirms, gives the one-click
 * Confirm and Decline links (issue 24: `confirmUrl` / `declineUrl`, signed by the caller; buttons in
 * the HTML, `Confirm: <url>` / `Decline: <url>` lines in the text) and links the dashboard
 * (`${publicBaseUrl}/app/dashboard`), where the owner can do the same. English (owner e-mails are).
 * Never calendar event titles (it is given none). Marked `personal`: no mailer logs its body.
 */
export function proposalEmail(opts: {
  to: string;
  ownerName: string;
  ownerTimezone: string;
  visitor: { name: string; email: string; note: string; timezone: string };
  /** UTC ms. */
  start: number;
  end: number;
  publicBaseUrl: string;
  /** One-click links (absolute URLs) that confirm / decline this proposal. */
  confirmUrl: string;
  declineUrl: string;
}): MailMessage {
  const { visitor } = opts;
  const ownerTime = formatTimeRange(opts.ownerTimezone, opts.start, opts.end);
  const visitorTime = formatTimeRange(visitor.timezone, opts.start, opts.end);
  // Only when it reads differently (another zone with the same clock adds nothing).
  const showVisitorTime = visitorTime !== ownerTime;
  const dashboard = `${opts.publicBaseUrl}/app/dashboard`;
  const note = visitor.note.trim();
  const times = [`    ${ownerTime} (your time, ${opts.ownerTimezone})`];
  if (showVisitorTime) times.push(`    ${visitorTime} (their time, ${visitor.timezone})`);
  const text = [
    `Hi ${opts.ownerName},`,
    '',
    `${visitor.name} proposed a time to meet via your Avail link:`,
    '',
    ...times,
    '',
    `From: ${visitor.name} <${visitor.email}>`,
    note ? `Note:\n${note}` : 'Note: (none)',
    '',
    `Nothing is booked until you confirm. Confirm or decline with the links below, or on your dashboard. Reply to this e-mail to write to ${visitor.name}, or to suggest another time.`,
    '',
    `Confirm: ${opts.confirmUrl}`,
    `Decline: ${opts.declineUrl}`,
    '',
    `See your proposals on your dashboard: ${dashboard}`,
    '',
    '— Avail',
  ].join('\n');
  const timeItems = [`<li><strong>${esc(ownerTime)}</strong> (your time, ${esc(opts.ownerTimezone)})</li>`];
  if (showVisitorTime) timeItems.push(`<li>${esc(visitorTime)} (their time, ${esc(visitor.timezone)})</li>`);
  const html = `<p>Hi ${esc(opts.ownerName)},</p>
<p>${esc(visitor.name)} proposed a time to meet via your Avail link:</p>
<ul>${timeItems.join('')}</ul>
<p>From: ${esc(visitor.name)} &lt;<a href="mailto:${esc(visitor.email)}">${esc(visitor.email)}</a>&gt;</p>
${note ? `<p>Note:</p><blockquote style="white-space:pre-wrap">${esc(note)}</blockquote>` : '<p>Note: (none)</p>'}
<p><strong>Nothing is booked until you confirm.</strong> Confirm or decline with the links below, or on your dashboard. Reply to this e-mail to write to ${esc(visitor.name)}, or to suggest another time.</p>
<p><a href="${esc(opts.confirmUrl)}" style="${BUTTON_STYLE};background:#15803d;color:#ffffff">Confirm</a>&nbsp;&nbsp;<a href="${esc(opts.declineUrl)}" style="${BUTTON_STYLE};background:#ffffff;color:#b91c1c;border:1px solid #b91c1c">Decline</a></p>
<p><a href="${esc(dashboard)}">See your proposals on your dashboard</a></p>
<p>— Avail</p>`;
  return {
    to: opts.to,
    replyTo: visitor.email,
    subject: `New time proposed: ${ownerTime}`,
    text,
    html,
    personal: true,
  };
}
