/**
 * The owner's public link (one per account: `/{username}`) and its per-day view analytics
 * (product spec §3 "Link" / "Link analytics entry", §7 /me/links and /me/analytics/links).
 * Days are dates in the owner's time zone, the same dates page views are recorded under
 * (public.service.ts), so "today" is the owner's today.
 */
import { addDays, formatIsoDate, getIanaZone, instantToWall } from '@avail/shared/domain/zone-time.ts';
import type { UserRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { HttpError, badRequest } from '../../http/errors.ts';
import * as repo from './links.repo.ts';

/** JSON of a link; the web's `OwnerLink` (shared/src/api/api-client.ts, which the server build does not include). */
export interface OwnerLink {
  id: string;
  slug: string;
  /** `${PUBLIC_BASE_URL}/${slug}` */
  url: string;
  /** ISO 8601 UTC. */
  created_at: string;
}

/** JSON of GET /me/analytics/links; the web's `LinkAnalytics` (shared/src/api/api-client.ts). */
export interface LinkAnalytics {
  analytics: Array<{ id: string; link_id: string; date: string; views: number }>;
  days: number;
  total: number;
  previous_total: number;
}

const NO_USERNAME = 'Choose a username first.';
const INVALID_DAYS = 'days must be 7, 30 or 90';
/** The ranges the analytics screen offers: Last 7 days, Last 30 days, Last 3 months (checklist N-03). */
const ANALYTICS_DAYS = [7, 30, 90] as const;
export type AnalyticsDays = (typeof ANALYTICS_DAYS)[number];

/** The link's id: the account's id, stable across username changes and before a username exists. */
function linkId(user: Pick<UserRow, 'id'>): string {
  return user.id;
}

/**
 * The owner's link `{ id, slug, url, created_at }`, or null without a username.
 * url = `${PUBLIC_BASE_URL}/${username}`; created_at (ISO 8601 UTC) = when the username was last
 * changed (`username_changed_at`), or, for a username never changed since it was first set, the
 * account's creation (the first set does not record a time).
 */
function ownerLink(deps: Deps, user: UserRow): OwnerLink | null {
  if (!user.username) return null;
  return {
    id: linkId(user),
    slug: user.username,
    url: `${deps.config.PUBLIC_BASE_URL}/${user.username}`,
    created_at: new Date(user.username_changed_at ?? user.created_at).toISOString(),
  };
}

/** GET /me/links: `{ links: OwnerLink[] }` — one entry with a username, else `[]`. */
export function listLinks(deps: Deps, user: UserRow): { links: OwnerLink[] } {
  const link = ownerLink(deps, user);
  return { links: link ? [link] : [] };
}

/**
 * POST /me/links: the owner's current link (idempotent: the link is the username; nothing is created).
 * @throws 409 `{ error: 'Choose a username first.', code: 'no_username' }` without a username.
 */
export function currentLink(deps: Deps, user: UserRow): { link: OwnerLink } {
  const link = ownerLink(deps, user);
  if (!link) throw new HttpError(409, 'no_username', NO_USERNAME);
  return { link };
}

/**
 * The `days` query parameter: absent → 30; exactly '7', '30' or '90' → that number.
 * @throws 400 `{ error: 'days must be 7, 30 or 90', code: 'invalid_days' }` otherwise (also when repeated).
 */
export function parseAnalyticsDays(raw: unknown): AnalyticsDays {
  if (raw === undefined) return 30;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  const days = ANALYTICS_DAYS.find((d) => d === n);
  if (days === undefined) throw badRequest(INVALID_DAYS, 'invalid_days');
  return days;
}

/** `YYYY-MM-DD` of instant `now` (UTC ms) in IANA zone `timezone`. */
function ownerToday(timezone: string, now: number): string {
  return formatIsoDate(instantToWall(getIanaZone(timezone), now));
}

/**
 * Views of the last `days` owner-zone dates ending today (today included) and of the `days` dates
 * before them. `perDay` lists every date of the current period, oldest first, zeros included.
 */
export async function viewPeriods(deps: Deps, user: Pick<UserRow, 'id' | 'timezone'>, days: number) {
  const today = ownerToday(user.timezone, deps.now());
  const first = addDays(today, -(days - 1));
  const previousFirst = addDays(first, -days);
  const counts = await repo.viewsPerDay(deps.db, user.id, previousFirst, today);
  const perDay: Array<{ date: string; views: number }> = [];
  let total = 0;
  let previous = 0;
  for (let i = 0; i < 2 * days; i++) {
    const date = addDays(previousFirst, i);
    const views = counts.get(date) ?? 0;
    if (i < days) {
      previous += views;
    } else {
      total += views;
      perDay.push({ date, views });
    }
  }
  return { perDay, total, previous_total: previous };
}

/**
 * GET /me/analytics/links: `LinkAnalytics` = `{ analytics: [{ id: '{link_id}:{date}', link_id, date, views }],
 * days, total, previous_total }` — every owner-zone date of the range, oldest first; views = distinct
 * visitors of the public page that day; previous_total = views of the `days` dates before the range.
 * An owner without a username gets zeros under the same link id.
 */
export async function linkAnalytics(deps: Deps, user: UserRow, days: AnalyticsDays): Promise<LinkAnalytics> {
  const link_id = linkId(user);
  const { perDay, total, previous_total } = await viewPeriods(deps, user, days);
  return {
    analytics: perDay.map(({ date, views }) => ({ id: `${link_id}:${date}`, link_id, date, views })),
    days,
    total,
    previous_total,
  };
}
