/**
 * Derivation of a connection's events and busy intervals from its raw ICS sources: pure CPU work
 * (parse + RRULE expansion + merge), no I/O. The server runs it in the worker pool
 * (derive-pool.ts), never on the thread that answers visitors; it is exported for the worker and
 * for tests.
 *
 * Budgets per connection (shared/src/constants.ts), over all sources together: at most
 * MAX_CONNECTION_OCCURRENCES occurrences inside the sync horizon (expansion stops as soon as it is
 * exceeded), MAX_CONNECTION_EVENTS events and MAX_CONNECTION_BUSY_INTERVALS merged busy intervals.
 * Over a budget the derivation is refused (DeriveError), never truncated: a truncated busy set
 * would show the owner free where they are busy, while a refusal keeps the last good busy
 * intervals and tells the owner why.
 */
import {
  MAX_CONNECTION_BUSY_INTERVALS,
  MAX_CONNECTION_EVENTS,
  MAX_CONNECTION_OCCURRENCES,
  MAX_RECURRENCE_INSTANCES,
  SYNC_HORIZON_FUTURE_DAYS,
  SYNC_HORIZON_PAST_DAYS,
} from '@avail/shared/constants.ts';
import { mergeIntervals } from '@avail/shared/domain/intervals.ts';
import { ExpansionLimitError, IcsParseError, expandBusy, parseCalendar, type OccurrenceBudget } from '@avail/shared/ical/calendar.ts';
import { VTimezoneError } from '@avail/shared/ical/vtimezone.ts';
import type { BusyRules } from '@avail/shared/ical/busy-rules.ts';
import type { DerivedRows } from '../../store/calendars.repo.ts';

const DAY_MS = 86_400_000;
const MAX_WARNINGS = 20;

/** A failure to turn stored calendar data into busy time; its message is shown to the owner. */
export class DeriveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeriveError';
  }
}

export interface DeriveOptions {
  /** Owner's IANA zone (floating and all-day times). */
  ownerZone: string;
  /** Owner addresses (declined invitations are free). */
  ownerEmails: readonly string[];
  /** Sync instant, UTC epoch ms: the horizon is [now − 30 d, now + 400 d). */
  now: number;
  /** The connection's busy rules (shared/src/ical/busy-rules.ts); default: the semantics doc's. */
  busyRules?: BusyRules;
  /**
   * Calendars (DeriveSource.calendarUrl) the owner switched off (calendar selection, issue 23):
   * their events are kept for the owner, as free, and add no busy interval.
   */
  excludedCalendars?: readonly string[];
}

export type Derived = DerivedRows & { warnings: string[] };

/** One stored calendar object: its raw ICS and the calendar it belongs to (calendar_sources.calendar_url). */
export interface DeriveSource {
  icsText: string;
  /** The source's calendar (CalDAV collection URL, Google calendar id, Graph calendar id, `ics:<connection>`). */
  calendarUrl?: string;
}

function syncHorizon(now: number): { rangeStart: number; rangeEnd: number } {
  return { rangeStart: now - SYNC_HORIZON_PAST_DAYS * DAY_MS, rangeEnd: now + SYNC_HORIZON_FUTURE_DAYS * DAY_MS };
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** Owner-facing message of a refused budget. */
function budgetMessage(what: 'occurrences' | 'events' | 'busy', limit: number): string {
  const noun = what === 'busy' ? 'separate busy times' : 'events';
  return (
    `This calendar expands to more than ${fmt(limit)} ${noun} between ${SYNC_HORIZON_PAST_DAYS} days ago and ` +
    `${SYNC_HORIZON_FUTURE_DAYS} days ahead; Avail reads at most ${fmt(limit)} per calendar, so it was not synced ` +
    `(look for an event that repeats every minute or second).`
  );
}

/**
 * Runs the shared engine over a connection's raw sources. Pure (no I/O), synchronous, CPU-bound:
 * call it through the worker pool (`deriveOffThread`), not on the request thread.
 *
 * @returns events (owner-only, with titles, each with its origin — single, recurring, override —
 *   and its source's calendar), merged busy intervals (UTC ms, half-open) and at most
 *   20 warnings.
 * @throws DeriveError with an owner-facing message: unreadable ICS, a series over
 *   MAX_RECURRENCE_INSTANCES, or a connection budget exceeded (see the module doc).
 */
export function deriveBusy(sources: ReadonlyArray<DeriveSource>, opts: DeriveOptions): Derived {
  const { rangeStart, rangeEnd } = syncHorizon(opts.now);
  const events: DerivedRows['events'] = [];
  const zoned: Array<{ start: number; end: number }> = [];
  const fixed: Array<{ start: number; end: number }> = [];
  const warnings = new Set<string>();
  const budget: OccurrenceBudget = { limit: MAX_CONNECTION_OCCURRENCES, remaining: MAX_CONNECTION_OCCURRENCES };
  const excluded = new Set(opts.excludedCalendars ?? []);
  for (const source of sources) {
    let result;
    try {
      const parsed = parseCalendar(source.icsText);
      result = expandBusy(parsed, {
        ownerZone: opts.ownerZone,
        ownerEmails: opts.ownerEmails,
        busyRules: opts.busyRules,
        rangeStart,
        rangeEnd,
        maxInstances: MAX_RECURRENCE_INSTANCES,
        budget,
      });
    } catch (err) {
      if (err instanceof ExpansionLimitError) {
        if (err.scope === 'connection') throw new DeriveError(budgetMessage('occurrences', err.limit));
        throw new DeriveError(
          `A recurring event has more than ${MAX_RECURRENCE_INSTANCES} occurrences in the sync window; this calendar could not be synced.`,
        );
      }
      if (err instanceof IcsParseError) throw new DeriveError(`Calendar data could not be read: ${err.message}`);
      if (err instanceof VTimezoneError) throw new DeriveError(`Calendar data could not be read: ${err.message}`);
      if (err instanceof RangeError) throw new DeriveError('Calendar data could not be read: it is too large or too deeply structured.');
      throw new DeriveError('Calendar data could not be read.');
    }
    for (const w of result.warnings) if (warnings.size < MAX_WARNINGS) warnings.add(w);
    const calendar = source.calendarUrl ?? null;
    const counts = calendar == null || !excluded.has(calendar);
    for (const e of result.events) events.push({ ...e, ...(counts ? {} : { isBusy: false }), dependsOnOwnerZone: e.allDay, calendar });
    if (events.length > MAX_CONNECTION_EVENTS) throw new DeriveError(budgetMessage('events', MAX_CONNECTION_EVENTS));
    if (counts) for (const i of result.intervals) (i.dependsOnOwnerZone ? zoned : fixed).push({ start: i.start, end: i.end });
  }
  const intervals = [
    ...mergeIntervals(fixed).map((i) => ({ start: i.start, end: i.end, dependsOnOwnerZone: false })),
    ...mergeIntervals(zoned).map((i) => ({ start: i.start, end: i.end, dependsOnOwnerZone: true })),
  ];
  if (intervals.length > MAX_CONNECTION_BUSY_INTERVALS) throw new DeriveError(budgetMessage('busy', MAX_CONNECTION_BUSY_INTERVALS));
  return { events, intervals, warnings: [...warnings].slice(0, MAX_WARNINGS) };
}
