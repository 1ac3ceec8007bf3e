/**
 * Pure helpers of two-factor sign-in (issue 26, docs/account-security.md "Two-factor sign-in"),
 * shared by the login's code step and Settings → Privacy & Security: what the code fields accept,
 * the server's QR code as an image address, and the recovery codes' text file.
 */

/** Digits of an authenticator code (RFC 6238 with the contract's 6 digits). */
export const TOTP_CODE_LENGTH = 6;

/** The file name the recovery codes download as. */
export const RECOVERY_CODES_FILE_NAME = 'avail-recovery-codes.txt';

/** What an authenticator-code field keeps of the typed or pasted text: its digits, at most 6 ("123 456" → "123456"). */
export function cleanTotpInput(value: string): string {
  return value.replace(/\D/g, '').slice(0, TOTP_CODE_LENGTH);
}

/**
 * A typed or pasted recovery code as the server expects it (`xxxxx-xxxxx`): spaces dropped,
 * lower case, and the hyphen put back when ten characters came without it ("ABCDE FGHIJ" →
 * "abcde-fghij"). Anything else is passed on trimmed, for the server to judge.
 */
export function cleanRecoveryInput(value: string): string {
  const compact = value.replace(/\s+/g, '').toLowerCase();
  if (/^[a-z0-9]{10}$/.test(compact)) return `${compact.slice(0, 5)}-${compact.slice(5)}`;
  return compact;
}

/**
 * A field that takes either kind of code (turning two-factor off, deleting the account): six
 * digits however they were typed ("123 456") are an authenticator code, anything else is read as
 * a recovery code (cleanRecoveryInput).
 */
export function cleanAnyCode(value: string): string {
  const digits = value.replace(/[\s-]/g, '');
  if (/^\d{6}$/.test(digits)) return digits;
  return cleanRecoveryInput(value);
}

/**
 * The server's QR code (SVG markup) as a `data:image/svg+xml;base64,…` address for an `<img>`:
 * shown as an image, the markup can run nothing and touch nothing on the page (never
 * `dangerouslySetInnerHTML`). UTF-8 safe.
 */
export function svgDataUrl(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

/** A base32 secret in groups of four for typing it into an app by hand ("JBSWY3DPEHPK3PXP" → "JBSW Y3DP EHPK 3PXP"). */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The text of the downloaded recovery-codes file: what they are for, the account (`email`), the
 * day they were made (`createdAt`, written as an ISO date, UTC) and one code a line. Lines end
 * in CRLF so every editor shows them apart.
 */
export function recoveryCodesText(codes: readonly string[], email: string, createdAt: Date): string {
  return [
    'Avail recovery codes',
    `Account: ${email}`,
    `Created: ${createdAt.toISOString().slice(0, 10)}`,
    '',
    'Each code signs you in once when you cannot use your authenticator app.',
    'Keep them somewhere safe, away from this device.',
    '',
    ...codes,
    '',
  ].join('\r\n');
}
