/**
 * The e-mails of changes an owner makes to their own account while signed in (issue 26;
 * docs/account-security.md), as pure functions returning a `MailMessage` (mailer.ts sends it).
 * English, like every owner e-mail. None carries an IP address or a location; the notices carry
 * no e-mail address either (the password-change notice links the reset page without prefilling
 * an address, the e-mail-change notice does not name the new address).
 */
import { esc, type MailMessage } from './mailer.ts';

/** `2026-11-27 08:30 UTC` of a UTC epoch ms. */
function utcMinute(at: number): string {
  return new Date(at).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

/** Text and HTML of the same paragraphs (`link` shown as an anchor where it appears). */
function paragraphs(lines: string[], link?: string): { text: string; html: string } {
  return {
    text: lines.join('\n\n'),
    html: lines
      .map((l) => {
        const p = esc(l);
        return `<p>${link ? p.replace(esc(link), `<a href="${esc(link)}">${esc(link)}</a>`) : p}</p>`;
      })
      .join('\n'),
  };
}

/**
 * "Your Avail password was changed": to the owner after PUT /api/me/password, when (UTC), that
 * other devices were signed out, and what to do if it was not them (reset the password at
 * `${publicBaseUrl}/forgot-password`).
 */
export function passwordChangedEmail(opts: { to: string; name: string; at: number; publicBaseUrl: string }): MailMessage {
  const reset = `${opts.publicBaseUrl}/forgot-password`;
  const lines = [
    `Hi ${opts.name},`,
    `The password of your Avail account was changed at ${utcMinute(opts.at)}. Every other device signed in to your account was signed out.`,
    `If this was you, there is nothing more to do. If it was not, choose a new password at once: ${reset}`,
    '— Avail',
  ];
  return { to: opts.to, subject: 'Your Avail password was changed', ...paragraphs(lines, reset) };
}

/**
 * The code confirming a new address (POST /api/me/email): to the NEW address, the 6-digit code
 * set large, its lifetime in minutes. The subject does not carry the code.
 */
export function emailChangeCodeEmail(opts: { to: string; name: string; code: string; ttlMinutes: number }): MailMessage {
  const intro = 'You asked to use this address for your Avail account. Your confirmation code is:';
  const after = `Enter it in Avail's settings, where you asked for the change. The code expires in ${opts.ttlMinutes} minutes. If you did not ask for this, you can ignore this e-mail: nothing changes.`;
  const text = [`Hi ${opts.name},`, '', intro, '', `    ${opts.code}`, '', after, '', '— Avail'].join('\n');
  const html = `<p>Hi ${esc(opts.name)},</p>
<p>${esc(intro)}</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${esc(opts.code)}</p>
<p>${esc(after)}</p>
<p>— Avail</p>`;
  return { to: opts.to, subject: 'Confirm your new Avail e-mail address', text, html };
}

/**
 * "Someone asked to change the e-mail address of your Avail account": to the CURRENT (old) address
 * when a change is requested (POST /api/me/email), when (UTC), that nothing changes unless the
 * code sent to the new address is entered, and what to do if it was not them. Neither the new
 * address nor an IP is written in it.
 */
export function emailChangeRequestedNoticeEmail(opts: { to: string; name: string; at: number }): MailMessage {
  const lines = [
    `Hi ${opts.name},`,
    `Someone asked to change the e-mail address of your Avail account at ${utcMinute(opts.at)}. Nothing changes until the code sent to the new address is entered in Avail's settings.`,
    'If this was you, there is nothing more to do. If it was not, someone else may be signed in to your account and know your password: sign out your other devices and change your password in Avail\'s settings at once.',
    '— Avail',
  ];
  return { to: opts.to, subject: 'Someone asked to change the e-mail address of your Avail account', ...paragraphs(lines) };
}

/**
 * "Your Avail e-mail address was changed": to the OLD address after the change, when (UTC); the
 * new address is not written in it.
 */
export function emailChangedNoticeEmail(opts: { to: string; name: string; at: number }): MailMessage {
  const lines = [
    `Hi ${opts.name},`,
    `The e-mail address of your Avail account was changed at ${utcMinute(opts.at)}. Avail will write to the new address from now on, and you sign in with it.`,
    'If this was you, there is nothing more to do. If it was not, someone else may know your password: contact whoever runs this Avail server at once.',
    '— Avail',
  ];
  return { to: opts.to, subject: 'Your Avail e-mail address was changed', ...paragraphs(lines) };
}
