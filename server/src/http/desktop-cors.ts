/**
 * CORS for the desktop tray app (issue 10): its renderer runs at `app://avail` and calls this
 * server's `/api` with a bearer token. Only the configured origins (`DESKTOP_ORIGINS`, default
 * `app://avail`) get `Access-Control-Allow-Origin`; no credentials (cookies) are ever allowed, and
 * every other origin gets no CORS headers at all, so browsers keep refusing cross-site reads.
 *
 * Preflight (`OPTIONS`) answers 204 with the methods and the request's headers
 * (`Authorization`, `Content-Type`, `X-Avail-Schema`), cached by the client for 10 minutes.
 * Follows the Fetch standard's CORS protocol (https://fetch.spec.whatwg.org/#http-cors-protocol)
 * through the `cors` middleware (https://github.com/expressjs/cors).
 */
import cors from 'cors';
import type { RequestHandler } from 'express';
import { SERVER_TIME_HEADER } from '@avail/shared/rx/hlc.ts';

/** Headers a desktop request may send cross-origin. */
const DESKTOP_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'X-Avail-Schema'];

/** The CORS middleware for `/api`, allowing exactly `origins`. */
export function desktopCors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return cors({
    origin: (origin, done) => done(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: DESKTOP_ALLOWED_HEADERS,
    // The desktop app reads the server's clock for its conflict clock (shared/src/rx/hlc.ts).
    exposedHeaders: [SERVER_TIME_HEADER],
    credentials: false,
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
}
