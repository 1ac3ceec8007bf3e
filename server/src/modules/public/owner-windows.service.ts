/**
 * The one server-side call into the free-window engine for an owner: the public page, proposals
 * and the generated e-mail text all read free windows through here, so they can never disagree.
 */
import { computeFreeWindows } from '@avail/shared/domain/free-windows.ts';
import { DAY_MS, formatIsoDate, getIanaZone, instantToWall } from '@avail/shared/domain/zone-time.ts';
import type { Deps } from '../../http/deps.ts';
import { listExceptionsBetween, listRules } from '../../store/availability.repo.ts';
import { busyBlockTimes } from '../blocks/index.ts';
import { publicCacheFor } from './public-cache.ts';
import { confirmedMeetingTimes } from '../../store/proposals.repo.ts';
import { busyMaxSpan, busyOverlapping } from './public.repo.ts';

/** The owner fields the engine needs. `timezone` is an IANA zone name. */
export interface WindowOwner {
  id: string;
  timezone: string;
}

/**
 * Free windows of `owner` within [start, end) (UTC ms), never before `now` (deps.now()).
 * Returns `[{ start, end }]` in UTC ms, sorted and disjoint (availability-semantics.md: rules in the
 * owner's zone, minus exceptions, minus busy time; RFC 5545 expansion already stored as
 * busy_intervals). Busy time = the calendars' busy intervals plus the owner's live manual busy
 * blocks (their times only; a block's note never reaches this code). Exceptions are loaded one
 * local day beyond each end so zone offsets can't clip them. Busy intervals are read from
 * `max(start, now) − the owner's longest interval` on (that length is cached per owner until the
 * owner's next change, public-cache.ts), sorted by start.
 */
export async function ownerFreeWindows(deps: Deps, owner: WindowOwner, start: number, end: number) {
  const now = deps.now();
  const zone = getIanaZone(owner.timezone);
  const fromDate = formatIsoDate(instantToWall(zone, start) - DAY_MS);
  const toDate = formatIsoDate(instantToWall(zone, end) + DAY_MS);
  const busyFrom = Math.max(start, now);
  const cache = publicCacheFor(deps.db);
  const gen = cache.gen(owner.id);
  let maxSpan = cache.maxSpan(owner.id);
  if (maxSpan === undefined) {
    maxSpan = await busyMaxSpan(deps.db, owner.id);
    cache.storeMaxSpan(owner.id, gen, maxSpan);
  }
  const [rules, exceptions, boundedBusy, blockBusy, meetingBusy] = await Promise.all([
    listRules(deps.db, owner.id),
    listExceptionsBetween(deps.db, owner.id, fromDate, toDate),
    busyOverlapping(deps.db, owner.id, busyFrom, end, maxSpan),
    busyBlockTimes(deps.db, owner.id, busyFrom, end),
    confirmedMeetingTimes(deps.db, owner.id, busyFrom, end, deps.config.AVAIL_SECRET_KEY),
  ]);
  // A write committed meanwhile may have brought a longer interval than maxSpan: read unbounded.
  const calendarBusy = cache.gen(owner.id) === gen ? boundedBusy : await busyOverlapping(deps.db, owner.id, busyFrom, end);
  return computeFreeWindows({
    timezone: owner.timezone,
    rules,
    exceptions,
    busy: blockBusy.length === 0 && meetingBusy.length === 0 ? calendarBusy : [...calendarBusy, ...blockBusy, ...meetingBusy],
    rangeStart: start,
    rangeEnd: end,
    now,
  });
}

/** Days looked at per step when searching for the next free time (one query set per step). */
const NEXT_FREE_STEP_DAYS = 31;

/**
 * The start (UTC ms) of the first free window of `owner` at or after `from`, up to the public
 * horizon (`now` + `horizonDays` days, the API's own limit), or null when there is none (issue 22:
 * "an empty week says when the next free time is"). Searches forward in 31-day steps through
 * `ownerFreeWindows`, so it costs at most 12 steps, and only when asked (an empty range).
 */
export async function nextFreeStart(deps: Deps, owner: WindowOwner, from: number, horizonDays: number): Promise<number | null> {
  const limit = deps.now() + horizonDays * DAY_MS;
  for (let start = from; start < limit; start += NEXT_FREE_STEP_DAYS * DAY_MS) {
    const windows = await ownerFreeWindows(deps, owner, start, Math.min(limit, start + NEXT_FREE_STEP_DAYS * DAY_MS));
    // Whole seconds, as the answer shows instants (public.presenter.ts toWholeSeconds).
    const first = windows.find((w) => Math.floor(w.end / 1000) * 1000 > Math.ceil(w.start / 1000) * 1000);
    if (first) return Math.ceil(first.start / 1000) * 1000;
  }
  return null;
}

/**
 * The owner's available hours within [start, end) (UTC ms) — weekly rules and date exceptions,
 * no busy time — as `[{ start, end }]`, never before now. Tells the owner WHY a time is no longer
 * free (busy, or outside the hours) when a confirmation is refused (issue 24).
 */
export async function ownerHoursWindows(deps: Deps, owner: WindowOwner, start: number, end: number) {
  const zone = getIanaZone(owner.timezone);
  const [rules, exceptions] = await Promise.all([
    listRules(deps.db, owner.id),
    listExceptionsBetween(deps.db, owner.id, formatIsoDate(instantToWall(zone, start) - DAY_MS), formatIsoDate(instantToWall(zone, end) + DAY_MS)),
  ]);
  return computeFreeWindows({ timezone: owner.timezone, rules, exceptions, busy: [], rangeStart: start, rangeEnd: end, now: deps.now() });
}
