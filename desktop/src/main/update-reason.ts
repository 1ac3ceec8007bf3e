/**
 * The reason of an updater error, fit to be shown or logged (update-controller.ts): electron-
 * updater's messages may carry feed addresses, signed download URLs and tokens, which never reach
 * a notification or a log line.
 */

/** Anything that looks like an address (scheme://…, or www.…) up to the next blank, quote or parenthesis, without trailing punctuation. */
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()]*[^\s"'<>().,;:!?]|\bwww\.[^\s"'<>()]*[^\s"'<>().,;:!?]/gi;
/** Credentials: `token=…`, `Authorization: …`, `Bearer …`, GitHub tokens, long opaque strings. */
const SECRET_PATTERNS: RegExp[] = [
  /\b(authorization|token|access_token|auth|password|secret|signature|x-amz-[a-z-]+)\s*[:=]\s*\S+/gi,
  /\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\bgh[pousr]_[A-Za-z0-9]{10,}/g,
  /\b[A-Za-z0-9+/_-]{32,}={0,2}/g,
];

/**
 * A reason fit for a notification or a log line: the first line of the error's message (electron-
 * updater appends response headers and bodies below), addresses replaced by `(address)`,
 * credentials by `(hidden)`, at most 160 characters. Never empty ("unknown error").
 */
export function safeUpdateReason(error: unknown): string {
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  let text = raw.split(/\r?\n/)[0] ?? '';
  text = text.replace(URL_PATTERN, '(address)');
  for (const p of SECRET_PATTERNS) text = text.replace(p, '(hidden)');
  text = text.replace(/\s+/g, ' ').trim();
  if (text.length > 160) text = `${text.slice(0, 159)}…`;
  return text || 'unknown error';
}
