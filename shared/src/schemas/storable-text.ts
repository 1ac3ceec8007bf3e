/**
 * Text a database can store as sent (issue 26): no NUL character (PostgreSQL's UTF-8 text refuses
 * it) and no unpaired UTF-16 surrogate (it has no UTF-8 form; drivers would store U+FFFD instead).
 * Used by the server's edge guard (every `/api` body) and by the schemas of the free-text fields a
 * device writes offline (a busy block's note, a proposal message), so a device never queues an
 * edit the server would refuse.
 */

/** The message of refused text. */
export const UNSTORABLE_TEXT_MESSAGE = 'This text contains a character that cannot be stored (a NUL character or an unpaired surrogate).';

/** A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
export const UNSTORABLE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** true when `text` can be stored as it is. */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE_TEXT.test(text);
}
