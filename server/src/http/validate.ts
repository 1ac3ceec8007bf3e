/**
 * Request validation with the shared zod contracts. Failures are 422 with one message per field
 * (`errors`) and `error` = the first message.
 */
import type { NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import { validationFailed } from './errors.ts';

/** Maps a zod error to `{ field: firstMessage }` (nested paths joined with '.'; root issues under '_'). */
export function zodFieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

/** Parses `value` or throws a 422 HttpError. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const errors = zodFieldErrors(result.error);
    throw validationFailed(errors, result.error.issues[0]?.message);
  }
  return result.data;
}

/** Middleware: replaces `req.body` with the parsed body (422 on failure). */
export function validate<S extends z.ZodType>(schema: S) {
  return (req: Request, _res: Response, next: NextFunction) => {
    req.body = parse(schema, req.body ?? {});
    next();
  };
}
