/**
 * Notices to an owner when two-factor sign-in (issue 26) is turned on or off on their account. No
 * IP address, device or secret in them; the owner who did not do it is told what to do.
 */
import { esc, type MailMessage } from './mailer.ts';

/** Input of a two-factor notice: recipient, display name, when it happened (UTC ms), the app origin. */
export interface TwoFactorNoticeInput {
  to: string;
  name: string;
  at: number;
  publicBaseUrl: string;
}

function notice(opts: TwoFactorNoticeInput, subject: string, what: string, ifNotYou: string): MailMessage {
  const when = new Date(opts.at).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  const reset = `${opts.publicBaseUrl}/forgot-password?email=${encodeURIComponent(opts.to)}`;
  const lines = [`Hi ${opts.name},`, `${what} (${when}).`, `${ifNotYou} ${reset}`, '— Avail'];
  return {
    to: opts.to,
    subject,
    text: lines.join('\n\n'),
    html: lines.map((l) => `<p>${esc(l).replace(esc(reset), `<a href="${esc(reset)}">${esc(reset)}</a>`)}</p>`).join('\n'),
  };
}

/** "Two-factor sign-in was turned on" (after POST /api/me/two-factor/enable). */
export function twoFactorEnabledEmail(opts: TwoFactorNoticeInput): MailMessage {
  return notice(
    opts,
    'Two-factor sign-in was turned on for your Avail account',
    'Two-factor sign-in was turned on for your Avail account: signing in now also asks for a code from your authenticator app',
    'Keep your recovery codes somewhere safe. If this was not you, someone knows your password: choose a new one now:',
  );
}

/** "Two-factor sign-in was turned off" (after DELETE /api/me/two-factor). */
export function twoFactorDisabledEmail(opts: TwoFactorNoticeInput): MailMessage {
  return notice(
    opts,
    'Two-factor sign-in was turned off for your Avail account',
    'Two-factor sign-in was turned off for your Avail account: signing in no longer asks for a code',
    'If this was not you, choose a new password now and turn two-factor sign-in on again in Settings:',
  );
}

/** "Someone entered your password but not your code" (a lock of the second-factor throttle started). */
export function secondFactorLockedEmail(opts: TwoFactorNoticeInput & { failures: number; lockMinutes: number }): MailMessage {
  return notice(
    opts,
    'Someone entered your Avail password but not your two-factor code',
    `Your password was entered correctly, followed by ${opts.failures} wrong two-factor codes in a row; sign-in is paused for ${opts.lockMinutes} minute${opts.lockMinutes === 1 ? '' : 's'}`,
    'If this was not you, someone knows your password: choose a new one now:',
  );
}

/** "A recovery code was used" (a sign-in, turning two-factor off or a deletion with a recovery code). */
export function recoveryCodeUsedEmail(opts: TwoFactorNoticeInput & { left: number }): MailMessage {
  return notice(
    opts,
    'A recovery code was used on your Avail account',
    `One of your two-factor recovery codes was used instead of a code from your authenticator app; ${opts.left} unused code${opts.left === 1 ? ' is' : 's are'} left`,
    'If this was not you, choose a new password now and check Settings → Privacy & Security:',
  );
}
