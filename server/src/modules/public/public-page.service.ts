/**
 * GET /{username} and /u/{username} (issue 11, P3): the visitor's page, server-rendered. The server
 * asks `publicAvailability` (the same answer, cache and page-view count as the API; the default
 * range, now → now + 28 days, covers the current week) and renders the week view in the owner's
 * zone — the visitor's zone is unknown on the first request; the page switches to the browser's
 * detected zone right after hydrating. Only the presenter's windows reach the markup: no title,
 * event or rule. The address's `?view=&date=` picks the period shown; without a date the page opens
 * on the first week with free time (issue 22). Texts are in the visitor's language (the language
 * menu's cookie, else Accept-Language; `Vary: Accept-Language, Cookie`). An unknown link answers
 * 404 with the "could not be found" page rendered; a failure gets the empty shell, which asks the
 * API in the browser. Headers: no-cache + ETag, noindex,
 * no-referrer, and `X-Avail-Page: public` so the service worker never keeps it as the app shell.
 */
import type { NextFunction, Request, Response } from 'express';
import type { Deps } from '../../http/deps.ts';
import { etagOnSend } from '../../http/encoded-body.ts';
import { HttpError } from '../../http/errors.ts';
import type { LimitOptions } from '../../http/rate-limit.ts';
import { allowFraming } from '../../http/security-headers.ts';
import { CLOCK_COOKIE, LANGUAGE_COOKIE, cookieValue, parseAcceptLanguage, pickLocale } from '@avail/shared/i18n/languages.ts';
import { plainDateIn } from '@avail/shared/i18n/formats.ts';
import { ALL_MESSAGES } from '@avail/shared/i18n/messages/all-messages.ts';
import { addDays, parseIsoDate } from '@avail/shared/domain/zone-time.ts';
import { slugOfPublicPath } from '@avail/shared/domain/public-path.ts';
import { fillPublicTemplate, publicSsrModule, publicTemplate, type PublicBoot, type PublicPlace, type PublicLocaleBoot } from './public-page.render.ts';
import { publicAvailability } from './public.service.ts';

/**
 * The visitor's locale preferences (issue 22 item 3): the language menu's choice (cookie `avail_lang`) over
 * `Accept-Language` (RFC 9110 §12.5.4), English when neither names a language with texts; the
 * date locale from the header's first tag; the 12/24 h choice (cookie `avail_clock`).
 */
function visitorLocale(acceptLanguage: string | undefined, cookie: string | undefined): PublicLocaleBoot {
  const clock = cookieValue(cookie, CLOCK_COOKIE);
  return { ...pickLocale(parseAcceptLanguage(acceptLanguage), cookieValue(cookie, LANGUAGE_COOKIE)), ...(clock === '12' || clock === '24' ? { hour12: clock === '12' } : {}) };
}

/** The place of the address's `view` and `date` (issue 22 item 2; anything else: the week, no date). */
function placeOf(view: unknown, date: unknown): PublicPlace {
  const ok = typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) && parseIsoDate(date) !== null;
  return { view: view === 'month' ? 'month' : 'week', date: ok ? (date as string) : null };
}

/**
 * The public range (`YYYY-MM-DD..YYYY-MM-DD`, dates in the owner's zone) an answer for `place`
 * needs: a week of any first day around the date (date ± 6 days), or the date's month.
 */
function rangeAround(place: PublicPlace & { date: string }): string {
  if (place.view === 'week') return `${addDays(place.date, -6)}..${addDays(place.date, 6)}`;
  const first = `${place.date.slice(0, 7)}-01`;
  return `${first}..${addDays(`${addDays(first, 31).slice(0, 7)}-01`, -1)}`;
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
    // The page is in the visitor's language (issue 22): the language menu's cookie, else Accept-Language.
    res.vary('Accept-Language');
    res.vary('Cookie');
    const slug = slugOfPublicPath(req.path);
    const ip = req.ip ?? '';
    if (!slug || req.method !== 'GET' || !allowed(ip)) return res.send(fillPublicTemplate(template));
    try {
      const ssr = await publicSsrModule(dist);
      if (!ssr) return res.send(fillPublicTemplate(template));
      const localePrefs = visitorLocale(req.get('accept-language'), req.get('cookie'));
      const messages = ALL_MESSAGES[localePrefs.language];
      res.setHeader('Content-Language', localePrefs.language);
      const now = deps.now();
      const key = typeof req.query.key === 'string' && req.query.key !== '' ? req.query.key : undefined;
      const place = placeOf(req.query.view, req.query.date);
      const visitor = { ip, userAgent: req.get('user-agent') ?? '' };
      let data: PublicBoot['data'];
      try {
        data = await publicAvailability(deps, slug, { key, range: place.date ? rangeAround({ ...place, date: place.date }) : undefined }, visitor);
      } catch (err) {
        // A date outside the public horizon: the page as if none was asked for (the browser then says the same).
        if (err instanceof HttpError && err.status === 400 && place.date) data = await publicAvailability(deps, slug, { key }, visitor);
        else if (!(err instanceof HttpError && err.status === 404)) throw err;
        else {
          // An unknown link: a real 404 with the page saying so (readable without JavaScript).
          const rendered = ssr.renderNotFound(localePrefs, messages, embed);
          return res.status(404).send(fillPublicTemplate(template, { ...rendered, json: '', bootId: ssr.PUBLIC_BOOT_ID }));
        }
      }
      // Free time first: with no date asked for and nothing free in the default range, render the
      // week of the first free time (the page opens there).
      if (!place.date && data.next_free && !data.availability.windows.length) {
        const day = plainDateIn(Date.parse(data.next_free), data.user_timezone);
        data = await publicAvailability(deps, slug, { key, range: rangeAround({ view: 'week', date: day }) }, visitor);
      }
      const boot: PublicBoot = { slug, tz: data.user_timezone, now, data, place, localePrefs, ...(key ? { key } : {}), ...(embed ? { embed } : {}) };
      const rendered = ssr.renderPublicPage(boot, messages);
      res.send(fillPublicTemplate(template, { ...rendered, bootId: ssr.PUBLIC_BOOT_ID }));
    } catch (err) {
      // An error, not a warning: while it lasts every visitor gets the shell (no page without
      // JavaScript, a slower first paint) — a broken SSR build once went unnoticed as a warning.
      deps.logger.error({ err }, 'public page: server rendering failed, sent the shell');
      res.send(fillPublicTemplate(template));
    }
  };
}
