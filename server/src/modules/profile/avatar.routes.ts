/** /api/me/avatar and /api/public/:slug/avatar.webp — the owner's picture (issue 22), mounted by profileRouter. */
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import { ipWindowLimiter, type RateLimits } from '../../http/rate-limit.ts';
import * as host from './host.service.ts';

/**
 * The raw image body of PUT /api/me/avatar as a Buffer (any Content-Type the JSON parser left alone),
 * at most AVATAR_MAX_BYTES; a larger body → 413 'The picture must be at most 2 MB' (read off, not kept).
 */
function avatarBody() {
  const raw = express.raw({ type: () => true, limit: host.AVATAR_MAX_BYTES });
  return (req: Request, res: Response, next: NextFunction) => {
    raw(req, res, (err?: unknown) => {
      if (err && (err as { type?: unknown }).type === 'entity.too.large') return next(host.avatarTooLarge());
      next(err);
    });
  };
}

/**
 * Router of the owner's picture: PUT/DELETE/GET /api/me/avatar and the host's public picture
 * /api/public/:slug/avatar.webp (issue 22). `limits.publicPerIp` limits the public picture per IP
 * (its own counts, apart from the availability answers).
 */
export function avatarRouter(deps: Deps, limits: RateLimits) {
  const r = Router();
  const auth = authenticate(deps);

  /**
   * PUT /api/me/avatar — the owner's picture as the raw request body, `Content-Type: image/png | image/jpeg |
   * image/webp`, ≤ 2 MB. Stored re-encoded: 256×256 px WebP, cover-cropped, no metadata.
   * 200 `{ avatar_url, avatar_version }` (avatar_url: `/api/public/{username}/avatar.webp?v={version}`, null until
   * a username is set). Refused with nothing stored: 422 `{ error, code: 'validation_failed', errors: { avatar } }`
   * with 'The picture must be a PNG, JPEG or WebP image' (another type, none, empty body), 'The file is not a valid
   * PNG image' (JPEG/WebP: undecodable, truncated, or bytes of another format than declared), 'The picture is too
   * large: at most 40 megapixels'; 413 `{ error: 'The picture must be at most 2 MB', code: 'payload_too_large',
   * errors: { avatar } }`. 401; 403.
   */
  r.put('/me/avatar', auth, requireVerified, avatarBody(), async (req, res) => {
    res.json(await host.uploadAvatar(deps, currentUser(req), req.get('content-type'), req.body));
  });

  /** DELETE /api/me/avatar — removes the picture (the public page shows initials). 204, also when there was none. 401; 403. */
  r.delete('/me/avatar', auth, requireVerified, async (req, res) => {
    await host.removeAvatar(deps, currentUser(req));
    res.status(204).end();
  });

  /** GET /api/me/avatar — the owner's own picture, 200 `image/webp` (256×256), `Cache-Control: no-store`. 404 `No picture`. 401; 403. */
  r.get('/me/avatar', auth, requireVerified, async (req, res) => {
    const image = await host.ownAvatar(deps, currentUser(req));
    res.setHeader('Content-Type', 'image/webp');
    res.setHeader('Content-Length', image.length);
    res.end(image);
  });

  /**
   * GET /api/public/:slug/avatar.webp?v={version}[&key={personal link key}] — a host's picture for visitors
   * (no token). 200 `image/webp`, 256×256, `Cache-Control: public, max-age=31536000, immutable` (the URL is
   * versioned; `private, …` when opened with a personal link's key), X-Robots-Tag: noindex,
   * Referrer-Policy: no-referrer. 404 `{ error: 'This availability link could not be found.', code: 'not_found' }`
   * exactly when the availability answer would be (unknown username, plain link off without a live key, bad key);
   * 404 `{ error: 'No picture', code: 'not_found' }` without a picture or for another version. 429 per IP.
   */
  r.get('/public/:slug/avatar.webp', ipWindowLimiter(limits.publicPerIp), async (req, res) => {
    const { image, viaKey } = await host.publicAvatar(deps, String(req.params.slug), req.query.v, req.query.key);
    res.setHeader('Cache-Control', `${viaKey ? 'private' : 'public'}, max-age=31536000, immutable`);
    res.setHeader('X-Robots-Tag', 'noindex');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Content-Type', 'image/webp');
    res.setHeader('Content-Length', image.length);
    res.end(image);
  });

  return r;
}
