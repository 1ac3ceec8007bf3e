/** Headers of the visitor-facing API (a public link is a capability): never cached, indexed or referred. */
import type { NextFunction, Request, Response } from 'express';

/** Sets Cache-Control: no-store, X-Robots-Tag: noindex and Referrer-Policy: no-referrer. */
export function privateHeaders(_req: Request, res: Response, next: NextFunction) {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
}
