/** Logs one line per request: method, path, status, duration. Never bodies, queries or headers. */
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/** Middleware: on finish, one `request` line `{ method, path (no query), status, ms }`; level error for 5xx, info otherwise. */
export function requestLogger(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : 'info';
      logger[level]({ method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, ms: Math.round(ms) }, 'request');
    });
    next();
  };
}
