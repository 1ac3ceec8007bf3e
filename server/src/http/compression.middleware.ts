/**
 * Content coding of responses (RFC 9110 §8.4 Content-Encoding, §12.5.3 Accept-Encoding, §12.5.5
 * Vary): brotli (RFC 7932) or gzip (RFC 1952) for HTML, JSON, JavaScript, CSS and iCalendar.
 *
 *  - `negotiateEncoding(header)`: the coding a response should use, br preferred, then gzip;
 *  - `compressResponses()`: the maintained `compression` middleware for everything else, on the fly
 *    above 1 KB; never on a response already coded (a precompressed file, a cached public answer:
 *    `markPrecompressed`) nor on Server-Sent Events (a stream must not wait for a compressor's buffer).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import compression from 'compression';

/** The content codings we send, best first. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/** Responses smaller than this (bytes) are sent as they are: coding costs more than it saves. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * Media types worth compressing: HTML, JSON, JavaScript, CSS, iCalendar (text/calendar), plus
 * SVG, plain text and web manifests. Not text/event-stream (see the file comment).
 */
export const COMPRESSIBLE_TYPE = /^(?:text\/(?:html|css|javascript|calendar|plain)|application\/(?:json|javascript|manifest\+json)|image\/svg\+xml)\s*(?:;|$)/i;

/**
 * The coding to answer with for an `Accept-Encoding` value (RFC 9110 §12.5.3): the acceptable
 * coding (qvalue > 0, named or through `*`) with the highest qvalue, br before gzip on a tie;
 * 'identity' when neither is acceptable or there is no header.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentCoding {
  if (!acceptEncoding) return 'identity';
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let value = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) value = Number(m[1]);
    }
    if (!Number.isNaN(value)) q.set(name.trim(), value);
  }
  const star = q.get('*');
  const of = (c: string) => q.get(c) ?? star ?? 0;
  const br = of('br');
  const gzip = Math.max(of('gzip'), q.get('x-gzip') ?? 0);
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return 'identity';
}

/**
 * Marks a response that is sent already coded (or deliberately identity) by our own code, so the
 * on-the-fly compressor leaves it alone.
 */
export function markPrecompressed(res: Response): void {
  res.locals.precompressed = true;
}

/**
 * The on-the-fly compressor (`compression` ≥ 1.8: br, gzip, deflate; brotli quality 4) for
 * responses of COMPRESSIBLE_TYPE of at least COMPRESSION_THRESHOLD bytes, adding
 * `Vary: Accept-Encoding` to every such response. A strong ETag of a response it codes becomes
 * weak (`W/"…"`, as RFC 9110 §8.8.3 forbids one strong tag for two codings), like nginx does;
 * compare tags with `etagMatches` (weak comparison).
 */
export function compressResponses(): RequestHandler {
  const compress = compression({
    threshold: COMPRESSION_THRESHOLD,
    filter: (_req, res) => !(res as Response).locals?.precompressed && COMPRESSIBLE_TYPE.test(String(res.getHeader('Content-Type') ?? '')),
  });
  return (req: Request, res: Response, next: NextFunction) => {
    // Installed before compression's own header hook, so it runs after it has chosen a coding.
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      const tag = res.getHeader('ETag');
      if (!res.locals.precompressed && res.getHeader('Content-Encoding') && typeof tag === 'string' && tag.startsWith('"')) res.setHeader('ETag', `W/${tag}`);
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response['writeHead'];
    compress(req, res, next);
  };
}
