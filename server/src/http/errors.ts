/**
 * HTTP errors with stable codes, rendered by error-handler.ts as
 * `{ "error": "<message>", "code": "<snake_case>", "errors"?: { field: message } }`.
 * Throw these from services and routes; anything else becomes a 500 'Something went wrong'.
 */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly errors?: Record<string, string>,
    /** Extra top-level fields of the body (e.g. `requires_verification`). */
    public readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** 400 — malformed input outside a form (bad range, unknown zone, bad JSON). */
export const badRequest = (message: string, code = 'bad_request') => new HttpError(400, code, message);
/** 401 — no or invalid credentials. */
export const unauthenticated = (message = 'Unauthenticated', code = 'unauthenticated') => new HttpError(401, code, message);
/** 403 — authenticated but not allowed. */
export const forbidden = (message = 'Forbidden', code = 'forbidden', extra?: Record<string, unknown>) =>
  new HttpError(403, code, message, undefined, extra);
/** 404 — nothing here (never says whether it existed). */
export const notFound = (message = 'Not found', code = 'not_found') => new HttpError(404, code, message);
/** 409 — taken (e-mail, username). */
export const conflict = (message: string, code = 'conflict', errors?: Record<string, string>) =>
  new HttpError(409, code, message, errors);
/** 422 — validation failed; `errors` maps field → message, `error` is the first message. */
export const validationFailed = (errors: Record<string, string>, message?: string) =>
  new HttpError(422, 'validation_failed', message ?? Object.values(errors)[0] ?? 'Validation failed', errors);
/** 429 — rate limited. */
export const tooManyRequests = (message = 'Too many requests. Please try again later.', code = 'rate_limited') =>
  new HttpError(429, code, message);
