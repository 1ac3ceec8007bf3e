/**
 * The web build's files, served as production wants them:
 *  - precompressed: `file.br` / `file.gz` written next to each compressible file at build time
 *    (web/vite.config.ts `precompress`) are sent instead of the file when the request accepts
 *    that coding (br, then gzip; RFC 9110 §8.4 Content-Encoding, RFC 7932), with the file's own
 *    Content-Type and `Vary: Accept-Encoding` (§12.5.5);
 *  - `Cache-Control`: `public, max-age=31536000, immutable` under /assets/ (file names carry a
 *    content hash), `no-cache` for HTML and /sw.js (revalidated every time), `public, max-age=3600`
 *    for the other unhashed files (/embed.js, the favicon);
 *  - a weak ETag per representation (`W/"<size>-<mtime>"` of the bytes sent, so each coding has its
 *    own: §8.8.3) and 304 on a matching If-None-Match (§13.1.2); ranges and HEAD as `res.sendFile`.
 */
import { stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { COMPRESSIBLE_TYPE, markPrecompressed, negotiateEncoding } from './compression.middleware.ts';

/** `Cache-Control` of hashed build assets (/assets/*): a year, never revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

async function fileStat(file: string): Promise<Stats | null> {
  try {
    const s = await stat(file);
    return s.isFile() ? s : null;
  } catch {
    return null;
  }
}

/** The Cache-Control of a build file by its URL path (see the file comment). */
function cacheControlFor(urlPath: string): string {
  if (urlPath.startsWith('/assets/')) return IMMUTABLE;
  if (/\.html?$/i.test(urlPath) || urlPath === '/sw.js') return 'no-cache';
  return 'public, max-age=3600';
}

/**
 * Sends the build file `file` (absolute, known to exist: `fileStats`) as `urlPath` with the
 * headers above; `setHeaders` may add more (before the body). Calls `next(err)` on a read error.
 */
export async function sendStaticFile(
  req: Request,
  res: Response,
  next: NextFunction,
  file: string,
  fileStats: Stats,
  urlPath: string,
  cacheControl = cacheControlFor(urlPath),
): Promise<void> {
  res.type(path.extname(file));
  let sent = file;
  let sentStats = fileStats;
  if (COMPRESSIBLE_TYPE.test(String(res.getHeader('Content-Type')))) {
    res.vary('Accept-Encoding');
    const coding = negotiateEncoding(req.get('accept-encoding'));
    if (coding !== 'identity') {
      const coded = `${file}.${coding === 'br' ? 'br' : 'gz'}`;
      const s = await fileStat(coded);
      // A stale coded copy (older than its file) is never sent.
      if (s && s.mtimeMs >= fileStats.mtimeMs) {
        sent = coded;
        sentStats = s;
        res.setHeader('Content-Encoding', coding);
        markPrecompressed(res);
      }
    }
    // Without a copy (a build without the plugin), the on-the-fly compressor codes it (≥ 1 KB).
  }
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', `W/"${sentStats.size.toString(16)}-${Math.floor(sentStats.mtimeMs).toString(16)}"`);
  res.sendFile(sent, { cacheControl: false, dotfiles: 'allow' }, (err) => {
    if (err && !res.headersSent) next(err);
  });
}

/**
 * Middleware serving the files under `root` for GET and HEAD (`..`, NUL and dotfiles refused →
 * next()); `skip(urlPath)` → next() (files that are build inputs, not pages); `setHeaders(res,
 * file)` adds headers to a file's response; the `.br` / `.gz` copies themselves are not served.
 */
export function staticFiles(root: string, options: { skip?: (urlPath: string) => boolean; setHeaders?: (res: Response, file: string) => void } = {}): RequestHandler {
  const base = path.resolve(root);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    if (urlPath.includes('\0') || urlPath.split('/').some((s) => s === '..' || s.startsWith('.')) || /\.(br|gz)$/.test(urlPath) || options.skip?.(urlPath)) return next();
    const file = path.join(base, urlPath);
    if (!file.startsWith(base + path.sep)) return next();
    void fileStat(file)
      .then((s) => {
        if (!s) return next();
        options.setHeaders?.(res, file);
        return sendStaticFile(req, res, next, file, s, urlPath);
      })
      .catch(next);
  };
}
