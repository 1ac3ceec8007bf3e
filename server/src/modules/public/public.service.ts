/** Free windows of a public link (availability-semantics.md "The public API"). */
import { createHash } from 'node:crypto';
import { resolvePublicRange } from '@avail/shared/domain/public-range.ts';
import { DAY_MS, formatIsoDate, getIanaZone, instantToWall, zoneChanges } from '@avail/shared/domain/zone-time.ts';
import { formatFreeBusy } from '@avail/shared/ical/free-busy.ts';
import type { Deps } from '../../http/deps.ts';
import type { EncodedBody } from '../../http/encoded-body.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { BUSY_HORIZON_DAYS } from '@avail/shared/constants.ts';
import type { Language } from '@avail/shared/i18n/languages.ts';
import { serverT } from '@avail/shared/i18n/messages/all-messages.ts';
import { nextFreeStart, ownerFreeWindows } from './owner-windows.service.ts';
import { pageViewsFor } from '../../store/page-views.ts';
import { publicCacheFor, type PublicOwner } from './public-cache.ts';
import { freshnessOf } from './public-freshness.ts';
import { presentPublicAvailability } from './public.presenter.ts';
import { countShareLinkView, openShareLink } from '../share-links/index.ts';
import * as repo from './public.repo.ts';

const LINK_NOT_FOUND = 'This availability link could not be found.';

export interface PublicQuery {
  range?: unknown;
  tz?: unknown;
  /** A personal link's token (`?key=`), if the visitor came through one. */
  key?: unknown;
}

export interface Visitor {
  ip: string;
  userAgent: string;
}

/** Anonymous per-day visitor id: sha256(secret + day + ip + user agent). The IP itself is never stored. */
function visitorHash(secret: Buffer, day: string, visitor: Visitor): string {
  return createHash('sha256').update(secret).update(`\u0000${day}\u0000${visitor.ip}\u0000${visitor.userAgent}`).digest('hex');
}

function queryString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`${name} must be given once`, 'invalid_range');
  return value;
}

/** Bytes of a 200 answer with the owner it belongs to. */
export interface PublicAnswer {
  ownerId: string;
  /** The JSON body (UTF-8), exactly what `publicAvailability` returns, serialised once. */
  body: Buffer;
  /** The same body with its br / gzip codings and ETags, shared by every hit of the cached answer. */
  encoded: EncodedBody;
}

/** The owner a visitor reached and, through a personal link, which one. */
export interface OpenedLink {
  owner: PublicOwner;
  /** The personal link's id (share_links), or null for the plain `/{username}` link. */
  shareLinkId: string | null;
}

/**
 * The owner behind `slug` (case-insensitive, from the cache or the database) as a visitor may see
 * it: with a `key`, only when it is a live personal link of that owner (share-links.service.ts);
 * without one, only while the owner's plain link is on. Everything else — unknown username, an
 * expired, revoked, foreign or malformed key, the plain link switched off — is the same
 * 404 `{ error: 'This availability link could not be found.', code: 'not_found' }`.
 */
export async function openPublicLink(deps: Deps, slug: string, key: unknown, now: number): Promise<OpenedLink> {
  const cache = publicCacheFor(deps.db);
  const slugLower = slug.toLowerCase();
  let owner = cache.ownerBySlug(slugLower);
  if (!owner) {
    const epoch = cache.currentEpoch();
    owner = await repo.findPublicOwner(deps.db, slugLower);
    if (!owner) throw notFound(LINK_NOT_FOUND);
    cache.storeOwner(slugLower, owner, epoch);
  }
  if (key === undefined || key === '') {
    if (owner.plain_link_off === 1) throw notFound(LINK_NOT_FOUND);
    return { owner, shareLinkId: null };
  }
  const link = typeof key === 'string' ? await openShareLink(deps, owner.id, key, now) : null;
  if (!link) throw notFound(LINK_NOT_FOUND);
  return { owner, shareLinkId: link.id };
}

/**
 * The visitor path, serialised: the 200 body of GET /api/public/:slug/availability as bytes, from
 * the public cache when it is provably the same answer (public-cache.ts: invalidated by the change
 * bus, valid only while the clock rule holds), else computed with `ownerFreeWindows` and cached.
 * Counts the view (batched, page-views.ts). 404 for an unknown slug; 400 for a bad range or zone.
 * `deps.now()` is read once: range resolution and windows use the same instant (UTC ms).
 */
export async function publicAvailabilityBody(deps: Deps, slug: string, query: PublicQuery, visitor: Visitor): Promise<PublicAnswer> {
  const now = deps.now();
  const { owner, shareLinkId } = await openPublicLink(deps, slug, query.key, now);
  const range = queryString(query.range, 'range');
  const tz = queryString(query.tz, 'tz');
  const cache = publicCacheFor(deps.db);
  // Raw query strings: equal strings resolve equally for one owner state and time (the clock rule).
  const key = `${owner.id}\u0000${range === undefined ? '\u0001' : range}\u0000${tz === undefined ? '\u0001' : tz}`;
  let encoded = cache.answer(key, owner.id, now)?.encoded;
  if (!encoded) {
    const gen = cache.gen(owner.id);
    const resolved = resolvePublicRange({ range, tz }, owner.timezone, now);
    if (!resolved.ok) throw badRequest(resolved.error, 'invalid_range');
    const [windows, conns] = await Promise.all([
      ownerFreeWindows({ ...deps, now: () => now }, owner, resolved.start, resolved.end),
      repo.connectionFreshness(deps.db, owner.id),
    ]);
    const freshness = freshnessOf(conns, now);
    // Free time first (issue 22): a range with nothing free from now on names the next free time after it.
    const nextFree = windows.some((w) => w.end > now) ? undefined : await nextFreeStart({ ...deps, now: () => now }, owner, Math.max(resolved.end, now), BUSY_HORIZON_DAYS);
    // Clock changes inside the range in the owner's zone and the visitor's (`tz`, else the owner's).
    const zones = [...new Set([owner.timezone, tz || owner.timezone])];
    const changes = zones
      .flatMap((z) => zoneChanges(getIanaZone(z), Math.max(resolved.start, now), resolved.end))
      .sort((a, b) => a.instant - b.instant || a.zone.localeCompare(b.zone));
    const body = Buffer.from(
      JSON.stringify(
        presentPublicAvailability({
          userName: owner.name,
          userTimezone: owner.timezone,
          windows,
          range: { start: resolved.start, end: resolved.end },
          freshness,
          zoneChanges: changes,
          host: { slug: slug.toLowerCase(), intro: owner.intro, avatarVersion: owner.avatar_version },
          nextFree,
        }),
      ),
    );
    encoded = cache.storeAnswer(key, owner.id, gen, {
      body,
      computedAt: now,
      // The answer changes once a window starts being cut at now: its first window's, or the next free time's.
      firstWindowStart: windows.length > 0 ? windows[0].start : (nextFree ?? Infinity),
      fixedRange: range !== undefined,
      validUntil: freshness.validUntil,
    });
  }
  await countView(deps, owner, now, visitor, shareLinkId);
  return { ownerId: owner.id, body: encoded.body, encoded };
}

/** The feed's human-readable texts in `language` (issue 22 item 3): calendar name and "Free". */
function feedTexts(language: Language) {
  const t = serverT(language);
  return { calendarName: (name: string) => t('feed.name', { name }), free: t('feed.free') };
}

/** Weeks a free/busy feed covers (issue 14: the next 8 weeks). */
const FREE_BUSY_WEEKS = 8;

/** A free/busy feed's bytes and validator. */
export interface FreeBusyFeed {
  body: Buffer;
  /** Strong ETag (quoted sha256 prefix of the body). */
  etag: string;
  /** The body with its br / gzip codings (each computed once per cached feed) and their ETags. */
  encoded: EncodedBody;
}

/**
 * The owner's free/busy feed (GET /api/public/:slug/free-busy.ics): free windows from the start of
 * the current minute to 8 weeks later, computed by `ownerFreeWindows` exactly as the public page
 * computes them (at the minute's start, so the body and its ETag stay the same within a minute
 * unless the owner's data changes), written by shared/src/ical/free-busy.ts as VFREEBUSY or, with
 * `format` 'events', as "Free" VEVENTs. Cached like the page's answers (public-cache.ts: dropped on
 * any change of the owner). 404 for an unknown slug or a link the visitor may not open (`linkKey`:
 * a personal link's token), exactly like the page.
 */
export async function freeBusyFeed(deps: Deps, slug: string, format: 'freebusy' | 'events', linkKey?: unknown, language: Language = 'en'): Promise<FreeBusyFeed> {
  const { owner } = await openPublicLink(deps, slug, linkKey, deps.now());
  const now = Math.floor(deps.now() / 60_000) * 60_000;
  const cache = publicCacheFor(deps.db);
  const key = `${owner.id}\u0000free-busy:${format}:${language}\u0000${now}`;
  let encoded = cache.answer(key, owner.id, now)?.encoded;
  if (!encoded) {
    const gen = cache.gen(owner.id);
    const end = now + FREE_BUSY_WEEKS * 7 * DAY_MS;
    const windows = await ownerFreeWindows({ ...deps, now: () => now }, owner, now, end);
    const body = Buffer.from(formatFreeBusy({ windows, rangeStart: now, rangeEnd: end, now, feedId: slug.toLowerCase(), name: owner.name, format, texts: feedTexts(language) }), 'utf8');
    encoded = cache.storeAnswer(key, owner.id, gen, { body, computedAt: now, firstWindowStart: windows.length > 0 ? windows[0].start : Infinity, fixedRange: true });
  }
  return { body: encoded.body, etag: encoded.etag('identity'), encoded };
}

/** Counts one view per visitor per owner-zone day (batched; never throws), and one for the personal link it came through. */
async function countView(deps: Deps, owner: PublicOwner, now: number, visitor: Visitor, shareLinkId: string | null): Promise<void> {
  // The owner's calendar date, so per-day analytics follow the owner's days (not UTC's).
  const day = formatIsoDate(instantToWall(getIanaZone(owner.timezone), now));
  const hash = visitorHash(deps.config.AVAIL_SECRET_KEY, day, visitor);
  await pageViewsFor(deps.db, deps.config.PAGE_VIEW_FLUSH_MS, deps.logger).record({ user_id: owner.id, day, visitor_hash: hash, created_at: now });
  if (shareLinkId) await countShareLinkView(deps, shareLinkId, day, hash, now);
}

/**
 * Resolves the range, computes free windows from the owner's rules, exceptions and busy intervals
 * overlapping it, and counts the view. 404 for an unknown slug; 400 for a bad range or zone.
 * Returns `{ user_name, user_timezone, host: { intro, avatar_url }, as_of, stale, zone_changes, availability: { windows: [{ start, end }], range: { start, end } } }`
 * (ISO `Z` instants to the second) — a fresh object each call (parsed from the cached bytes).
 */
export async function publicAvailability(deps: Deps, slug: string, query: PublicQuery, visitor: Visitor) {
  const { body } = await publicAvailabilityBody(deps, slug, query, visitor);
  return JSON.parse(body.toString('utf8')) as ReturnType<typeof presentPublicAvailability>;
}
