/** Logs one line per request: method, path, status, duration. Never bodies, queries or headers. */
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

/**
 * Middleware: on finish, one `request` line `{ method, path (no query), status, ms }`; level error
 * for 5xx, info otherwise. Costs nothing when neither level is enabled. The line's cost is mostly
 * the logger's write: main.ts gives pino an asynchronous destination, so lines are written in
 * batches off the request path.
 */
export function requestLogger(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    // Nothing to log at this level: no listener, no clock read (the hot visitor path pays nothing).
    if (!logger.isLevelEnabled('info') && !logger.isLevelEnabled('error')) return next();
    const started = performance.now();
    res.once('finish', () => {
      const level = res.statusCode >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const url = req.originalUrl;
      const q = url.indexOf('?');
      logger[level]({ method: req.method, path: q < 0 ? url : url.slice(0, q), status: res.statusCode, ms: Math.round(performance.now() - started) }, 'request');
    });
    next();
  };
}
