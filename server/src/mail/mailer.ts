/**
 * Outgoing e-mail. With SMTP_URL: nodemailer over SMTP. Without: the whole message (including a
 * verification code) is written to the log at info level, so the embedded default works with no
 * mail server — the operator reads the code from the server log.
 */
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
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
        await transport.sendMail({ from: config.MAIL_FROM, ...message });
        // Never the subject or body: a verification e-mail's subject carries the code.
        logger.info({ to: message.to }, 'mail sent');
      },
    };
  }
  return {
    async send(message) {
      logger.info(
        { mail: { from: config.MAIL_FROM, to: message.to, subject: message.subject, text: message.text } },
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

/** The verification e-mail: friendly, names Avail, carries the 6-digit code and a prefilled link. */
export function verificationEmail(opts: {
  to: string;
  name: string;
  code: string;
  publicBaseUrl: string;
  ttlMinutes: number;
}): MailMessage {
  const link = `${opts.publicBaseUrl}/verify-email?email=${encodeURIComponent(opts.to)}&code=${encodeURIComponent(opts.code)}`;
  const text = [
    `Hi ${opts.name},`,
    '',
    'Welcome to Avail! Your verification code is:',
    '',
    `    ${opts.code}`,
    '',
    `Enter it on the verification screen, or open this link to verify right away:`,
    link,
    '',
    `The code expires in ${opts.ttlMinutes} minutes. If you did not create an Avail account, you can ignore this e-mail.`,
    '',
    '— Avail',
  ].join('\n');
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<p>Hi ${esc(opts.name)},</p>
<p>Welcome to Avail! Your verification code is:</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${opts.code}</p>
<p><a href="${esc(link)}">Verify my e-mail</a></p>
<p>The code expires in ${opts.ttlMinutes} minutes. If you did not create an Avail account, you can ignore this e-mail.</p>
<p>— Avail</p>`;
  return { to: opts.to, subject: `Your Avail verification code: ${opts.code}`, text, html };
}
