/**
 * GET /{username} and /u/{username} (issue 11, P3): the visitor's page, server-rendered. The server
 * asks `publicAvailability` (the same answer, cache and page-view count as the API; the default
 * range, now → now + 28 days, covers the current week) and renders the week view in the owner's
 * zone — the visitor's zone is unknown on the first request; the page switches to the browser's
 * detected zone right after hydrating. Only the presenter's windows reach the markup: no title,
 * event or rule. An unknown link (or a failure) gets the empty shell, which asks the API in the
 * browser and shows the same "could not be found" state as before. Headers: no-cache + ETag, noindex,
 * no-referrer, and `X-Avail-Page: public` so the service worker never keeps it as the app shell.
 */
import type { NextFunction, Request, Response } from 'express';
import type { Deps } from '../../http/deps.ts';
import { etagOnSend } from '../../http/encoded-body.ts';
import { HttpError } from '../../http/errors.ts';
import type { LimitOptions } from '../../http/rate-limit.ts';
import { allowFraming } from '../../http/security-headers.ts';
import { fillPublicTemplate, publicSsrModule, publicTemplate, type PublicBoot } from './public-page.render.ts';
import { publicAvailability } from './public.service.ts';

/** The slug of `/u/:slug`, `/embed/:slug` or `/:slug` (percent-decoded), or null. */
export function publicSlug(p: string): string | null {
  const m = /^\/(?:u\/|embed\/)?([^/]+)\/?$/.exec(p);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

/** Per-IP budget of server-rendered answers (over it, the empty shell: the API's own limit applies). */
function renderBudget(options: LimitOptions, now: () => number) {
  let windowStart = 0;
  let counts = new Map<string, number>();
  return (ip: string): boolean => {
    const t = now();
    if (t - windowStart >= options.windowMs) {
      windowStart = t;
      counts = new Map();
    }
    const n = (counts.get(ip) ?? 0) + 1;
    counts.set(ip, n);
    return n <= options.limit;
  };
}

/**
 * Handler for a public page path (the caller checks `isPublicPagePath`). Calls `next()` when the
 * build has no public.html, so the SPA's index.html answers as before. With `embed` (the caller
 * checks `isEmbedPagePath`: `/embed/:slug`), the same page in its compact layout, and the one
 * response other sites may frame (security-headers.ts allowFraming).
 */
export function publicPageHandler(deps: Deps, dist: string, limit: LimitOptions, embed = false) {
  const allowed = renderBudget(limit, deps.now);
  return async (req: Request, res: Response, next: NextFunction) => {
    const template = publicTemplate(dist);
    if (!template) return next();
    // Revalidated on every visit (RFC 9111 §5.2.2.4 no-cache): a weak ETag of the page, 304 when unchanged.
    res.setHeader('Cache-Control', 'no-cache');
    etagOnSend(res);
    res.setHeader('X-Robots-Tag', 'noindex');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Avail-Page', 'public');
    if (embed) allowFraming(res);
    res.type('html');
    const slug = publicSlug(req.path);
    const ip = req.ip ?? '';
    if (!slug || req.method !== 'GET' || !allowed(ip)) return res.send(fillPublicTemplate(template));
    try {
      const ssr = await publicSsrModule(dist);
      if (!ssr) return res.send(fillPublicTemplate(template));
      const now = deps.now();
      const key = typeof req.query.key === 'string' && req.query.key !== '' ? req.query.key : undefined;
      const data = await publicAvailability(deps, slug, { key }, { ip, userAgent: req.get('user-agent') ?? '' });
      const boot: PublicBoot = { slug, tz: data.user_timezone, now, data, ...(key ? { key } : {}), ...(embed ? { embed } : {}) };
      const rendered = ssr.renderPublicPage(boot);
      res.send(fillPublicTemplate(template, { ...rendered, bootId: ssr.PUBLIC_BOOT_ID }));
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 404)) deps.logger.warn({ err }, 'public page: server rendering failed, sent the shell');
      res.send(fillPublicTemplate(template));
    }
  };
}
