/** /api/public/:slug/availability — no token; a capability link, so never cached, indexed or referred. */
import { Router, type Request, type Response } from 'express';
import { privateHeaders } from '../../http/private-headers.ts';
import type { Deps } from '../../http/deps.ts';
import { ipWindowLimiter, type RateLimits } from '../../http/rate-limit.ts';
import { badRequest } from '../../http/errors.ts';
import { sendEncodedBody } from '../../http/encoded-body.ts';
import { parseAcceptLanguage, pickLocale } from '@avail/shared/i18n/languages.ts';
import { freeBusyFeed, publicAvailabilityBody } from './public.service.ts';

/** Router for the public availability API (availability-semantics.md "The public API"). */
export function publicRouter(deps: Deps, limits: RateLimits) {
  const r = Router();

  /**
   * GET /api/public/:slug/availability?range=START..END&tz=ZONE
   * START/END: ISO dates (inclusive, local dates in `tz`, default the owner's zone) or ISO instants with Z/offset.
   * `key`: a personal link's token (issue 14); required when the owner switched the plain link off.
 * No range: now → now + 28 days. At most 93 days; must end by now + 366 days.
   * 200 `{ user_name, user_timezone, as_of, stale, zone_changes, availability: { windows: [{ start, end }], range: { start, end } } }`,
   * instants ISO 8601 UTC `…Z` to the second; windows never start before now. `as_of`: the oldest
   * last good sync of the owner's calendars (null without any); `stale`: true when one of them is in
   * error, expired, never synced or older than 30 minutes (public-freshness.ts). `zone_changes`:
   * `[{ at, zone, offset_before, offset_after }]`, the clock changes (offsets in minutes east of
   * UTC) of the owner's zone and of `tz` between now and the range's end.
   * 400 `{ error, code: 'invalid_range' }` (bad range, unknown zone, too long, end before start, beyond the horizon);
   * 404 `{ error: 'This availability link could not be found.', code: 'not_found' }` for any unknown slug; 429.
   * Headers: Cache-Control: no-store, X-Robots-Tag: noindex, Referrer-Policy: no-referrer;
   * Content-Encoding br or gzip as accepted (RFC 9110 §12.5.3; br preferred; identity under 1 KB),
   * Vary: Accept-Encoding, a strong ETag per coding (RFC 9110 §8.8.3) and 304 on a matching If-None-Match.
   * Counts one page view per visitor per day (hashed, no IP stored; batched).
   * The body comes serialised from the public cache (public-cache.ts) with its codings, each
   * compressed once per cached answer (http/encoded-body.ts), and is sent as is (`res.end`).
   */
  r.get('/public/:slug/availability', privateHeaders, ipWindowLimiter(limits.publicPerIp), async (req: Request, res: Response) => {
    const { encoded } = await publicAvailabilityBody(
      deps,
      String(req.params.slug),
      { range: req.query.range, tz: req.query.tz, key: req.query.key },
      { ip: (res.locals.clientIp as string | undefined) ?? req.ip ?? '', userAgent: req.get('user-agent') ?? '' },
    );
    // The cached bytes in the accepted coding, straight to Node (no re-encoding); HEAD: headers only.
    sendEncodedBody(req, res, encoded, 'application/json; charset=utf-8');
  });

  /**
   * GET /api/public/:slug/free-busy.ics[?format=events] → 200 `text/calendar; charset=utf-8`: the
   * next 8 weeks as one VFREEBUSY (RFC 5545 §3.6.4; FBTYPE=FREE per free window,
   * FBTYPE=BUSY-UNAVAILABLE for the rest), or with `format=events` the free windows as "Free"
   * VEVENTs (TRANSP:TRANSPARENT) for Google/Apple subscriptions; REFRESH-INTERVAL and
   * X-PUBLISHED-TTL PT15M. The calendar's name and the events' "Free" are in `?lang=` (en, de, fr, es,
   * nl, pt) or the request's Accept-Language, else English (Vary: Accept-Language). ETag (per coding: br, gzip as accepted, Vary: Accept-Encoding); If-None-Match → 304. The same per-IP limit and 404 as the page
   * (`{ error, code: 'not_found' }`; `key` as for the page); 400 `invalid_format` for another `format`. Times only: no
   * title, guest, location or description of any event. Never stored by shared caches
   * (`Cache-Control: private, no-cache`), not indexed, no referrer.
   */
  r.get('/public/:slug/free-busy.ics', ipWindowLimiter(limits.publicPerIp), async (req: Request, res: Response) => {
    const raw = req.query.format;
    if (raw !== undefined && raw !== 'events' && raw !== 'freebusy') throw badRequest('format must be "events" or left out', 'invalid_format');
    // Its texts (calendar name, "Free") in `?lang=` or the Accept-Language of the calendar app, else English.
    const lang = typeof req.query.lang === 'string' ? [req.query.lang] : [];
    const { language } = pickLocale([...lang, ...parseAcceptLanguage(req.get('accept-language'))]);
    res.vary('Accept-Language');
    const feed = await freeBusyFeed(deps, String(req.params.slug), raw === 'events' ? 'events' : 'freebusy', req.query.key, language);
    res.setHeader('Cache-Control', 'private, no-cache');
    res.setHeader('X-Robots-Tag', 'noindex');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Content-Disposition', 'inline; filename="free-busy.ics"');
    // br / gzip as accepted (Vary: Accept-Encoding), coded once per cached feed; identity keeps the feed's ETag, codings their own.
    sendEncodedBody(req, res, feed.encoded, 'text/calendar; charset=utf-8');
  });

  return r;
}
