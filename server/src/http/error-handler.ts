/**
 * The one error renderer. Wire format: `{ error, code, errors? }` with the HttpError's status;
 * body-parser failures → 400/413; an undecodable path → 400 'Malformed URL';
 * anything unknown → 500 'Something went wrong' (details logged only).
 */
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { GENERIC_ERROR_MESSAGE } from '@avail/shared/constants.ts';
import { HttpError } from './errors.ts';

/**
 * Express error middleware (register last). Renders `{ error, code, errors?, ...extra }` with the
 * HttpError's status; see the module comment for the other mappings. Unknown errors are logged
 * (with method and path, never bodies) and answered 500 'Something went wrong' (product spec §7, §8).
 */
export function errorHandler(logger: Logger) {
  // Express recognises error handlers by their four parameters.
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let httpError: HttpError;
    if (err instanceof HttpError) {
      httpError = err;
    } else if (err instanceof URIError && (err as URIError & { status?: unknown }).status === 400) {
      // The router could not decode a percent-escape in the path (`/api/public/%E0%A4%A/…`).
      httpError = new HttpError(400, 'bad_request', 'Malformed URL');
    } else if (isBodyParserError(err)) {
      httpError =
        err.type === 'entity.too.large'
          ? new HttpError(413, 'payload_too_large', 'Request body is too large')
          : new HttpError(400, 'bad_request', 'Request body is not valid JSON');
    } else {
      logger.error({ err, method: req.method, path: req.path }, 'unhandled error');
      httpError = new HttpError(500, 'internal_error', GENERIC_ERROR_MESSAGE);
    }
    if (res.headersSent) return;
    const body: Record<string, unknown> = { ...(httpError.extra ?? {}), error: httpError.message, code: httpError.code };
    if (httpError.errors) body.errors = httpError.errors;
    res.status(httpError.status).json(body);
  };
}

/** 404 for unknown /api routes, same wire format. */
export function apiNotFound(_req: Request, res: Response) {
  res.status(404).json({ error: 'Not found', code: 'not_found' });
}

function isBodyParserError(err: unknown): err is { type: string; status: number } {
  return typeof err === 'object' && err !== null && 'type' in err && typeof (err as { type: unknown }).type === 'string' && 'status' in err;
}
