/**
 * The one server-side call into the free-window engine for an owner: the public page, proposals
 * and the generated e-mail text all read free windows through here, so they can never disagree.
 */
import { computeFreeWindows } from '@avail/shared/domain/free-windows.ts';
import { DAY_MS, formatIsoDate, getIanaZone, instantToWall } from '@avail/shared/domain/zone-time.ts';
import type { Deps } from '../../http/deps.ts';
import { listExceptionsBetween, listRules } from '../availability/availability.repo.ts';
import { busyOverlapping } from './public.repo.ts';

/** The owner fields the engine needs. `timezone` is an IANA zone name. */
export interface WindowOwner {
  id: string;
  timezone: string;
}

/**
 * Free windows of `owner` within [start, end) (UTC ms), never before `now` (deps.now()).
 * Returns `[{ start, end }]` in UTC ms, sorted and disjoint (availability-semantics.md: rules in the
 * owner's zone, minus exceptions, minus busy intervals; RFC 5545 expansion already stored as
 * busy_intervals). Exceptions are loaded one local day beyond each end so zone offsets can't clip them.
 */
export async function ownerFreeWindows(deps: Deps, owner: WindowOwner, start: number, end: number) {
  const now = deps.now();
  const zone = getIanaZone(owner.timezone);
  const fromDate = formatIsoDate(instantToWall(zone, start) - DAY_MS);
  const toDate = formatIsoDate(instantToWall(zone, end) + DAY_MS);
  const [rules, exceptions, busy] = await Promise.all([
    listRules(deps.db, owner.id),
    listExceptionsBetween(deps.db, owner.id, fromDate, toDate),
    busyOverlapping(deps.db, owner.id, Math.max(start, now), end),
  ]);
  return computeFreeWindows({
    timezone: owner.timezone,
    rules,
    exceptions,
    busy,
    rangeStart: start,
    rangeEnd: end,
    now,
  });
}
