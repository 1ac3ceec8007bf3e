/**
 * Text no database can store, refused at the edge of `/api` on SQLite and PostgreSQL alike
 * (issue 26): PostgreSQL's UTF-8 text refuses the NUL character ("invalid byte sequence for
 * encoding UTF8: 0x00" — a 500 if it reached a query), and an unpaired UTF-16 surrogate has no
 * UTF-8 form (the drivers would silently store U+FFFD instead: a changed value).
 *
 * - a NUL (`%00`) in the path → 404, as for any unknown name (a username, an id);
 * - a NUL in the query string → 400;
 * - a NUL or an unpaired surrogate in any string or key of a JSON body → 422 `validation_failed`
 *   with the field's path in `errors` (`name`, `0.newDocumentState.note`).
 * Malformed percent-escapes (overlong UTF-8, encoded surrogates) are refused by the router itself
 * (400 'Malformed URL', error-handler.ts).
 */
import type { NextFunction, Request, Response } from 'express';
import { UNSTORABLE_TEXT as UNSTORABLE, UNSTORABLE_TEXT_MESSAGE } from '@avail/shared/schemas/storable-text.ts';
import { badRequest, notFound, validationFailed } from './errors.ts';
/** Deeper bodies are not walked further (none of ours nests beyond a few levels). */
const MAX_DEPTH = 32;

/** Middleware for `/api` before any router: a `%00` in the path → 404, in the query → 400. */
export function rejectNulInUrl(req: Request, _res: Response, next: NextFunction): void {
  const url = req.url;
  const at = url.indexOf('%00'); // raw NUL bytes never get past Node's HTTP parser
  if (at >= 0) {
    const query = url.indexOf('?');
    if (query < 0 || at < query) throw notFound();
    throw badRequest('The address contains a NUL character.');
  }
  next();
}

/**
 * The path (`a.b.0.c`) of the first string or key in `value` that holds unstorable text, or null.
 * Walks at most MAX_DEPTH levels.
 */
export function findUnstorableText(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path || '_' : null;
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], path ? `${path}.${i}` : String(i), depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (UNSTORABLE.test(key)) return here.replace(UNSTORABLE, '?');
    const found = findUnstorableText(v, here, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Middleware after the JSON body parsers: 422 when a string or key of the body holds unstorable text. */
export function rejectUnstorableBody(req: Request, _res: Response, next: NextFunction): void {
  const field = findUnstorableText(req.body);
  if (field) throw validationFailed({ [field]: UNSTORABLE_TEXT_MESSAGE });
  next();
}
