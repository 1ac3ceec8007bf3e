/**
 * The tray's state, computed on the device from local data with the shared free-window engine
 * (availability-semantics.md) — the same call the public page's server makes, over the same
 * inputs: weekly rules, date overrides, busy calendar events and manual busy blocks. Pure.
 *
 * Units: instants are UTC epoch milliseconds; local times `HH:MM` in the owner's zone.
 */
import { composeEmailText, defaultEmailText } from '@avail/shared/email-text.ts';
import type { BusyDuration, TrayProposal, TrayState, TrayWindow } from '@avail/shared/desktop/desktop-bridge.ts';
import { computeFreeWindows, type DateException, type WeeklyRule } from '@avail/shared/domain/free-windows.ts';
import { DAY_MS, MINUTE_MS, formatIsoDate, getIanaZone, instantToWall, parseIsoDate, startOfLocalDay } from '@avail/shared/domain/zone-time.ts';

/** How far ahead the tray looks for free windows (the same 14 days as Links → Generate New Text). */
export const TRAY_HORIZON_MS = 14 * DAY_MS;

export interface TrayInputs {
  /** The owner's IANA zone. */
  timezone: string;
  rules: readonly WeeklyRule[];
  exceptions: readonly DateException[];
  /** Busy intervals: the busy calendar events and the live busy blocks, UTC ms, any order. */
  busy: ReadonlyArray<{ start: number; end: number }>;
  now: number;
}

/**
 * Free windows in [now, now + 14 days), sorted, disjoint and merged where they touch (so "free
 * until" is the end of the whole free run, across midnight).
 * @throws InvalidInputError (shared engine) for malformed rules or exceptions.
 */
export function trayWindows(input: TrayInputs): TrayWindow[] {
  return computeFreeWindows({
    timezone: input.timezone,
    rules: input.rules,
    exceptions: input.exceptions,
    busy: input.busy,
    rangeStart: input.now,
    rangeEnd: input.now + TRAY_HORIZON_MS,
    now: input.now,
  }).map((w) => ({ start: w.start, end: w.end }));
}

export interface TrayStateInputs extends TrayInputs {
  name: string;
  /** The owner's public link, or null without a username. */
  link: string | null;
  connection: TrayState['connection'];
  pendingCount: number;
  /** Pending proposals for the tray's menu, soonest first (issue 24); none when absent. */
  proposals?: TrayProposal[];
}

/**
 * The whole tray state. `freeTimesText` is exactly what Links → "Generate New Text" writes for
 * the owner's zone and no context (the default template when nothing is free in 14 days).
 */
export function buildTrayState(input: TrayStateInputs): TrayState {
  const windows = trayWindows(input);
  const link = input.link;
  const freeTimesText = link
    ? windows.length
      ? composeEmailText({ name: input.name, link, timezone: input.timezone, windows })
      : defaultEmailText(input.name, link)
    : null;
  return {
    signedIn: true,
    connection: input.connection,
    pendingCount: input.pendingCount,
    timezone: input.timezone,
    windows,
    link,
    freeTimesText,
    computedAt: input.now,
    proposals: input.proposals ?? [],
  };
}

/**
 * The tray state of a signed-in owner whose device has not pulled yet (issue 25): no windows of
 * its own (`syncing: true` — the tray keeps its last known ones and says "Syncing…"), the zone and
 * link known from the session. `now`: UTC ms.
 */
export function syncingTrayState(input: { timezone: string; link: string | null; connection: TrayState['connection']; pendingCount: number; now: number }): TrayState {
  return {
    signedIn: true,
    connection: input.connection,
    pendingCount: input.pendingCount,
    timezone: input.timezone,
    windows: [],
    link: input.link,
    freeTimesText: null,
    computedAt: input.now,
    syncing: true,
  };
}

/**
 * Start and end (UTC ms) of a tray "Busy for …" block made at `now`: the next 30/60/120 minutes,
 * or until the next local midnight in the owner's zone ("rest of today"; DST-aware: a 23- or
 * 25-hour day ends at its real midnight).
 */
export function busyBlockBounds(duration: BusyDuration, now: number, timezone: string): { start_ms: number; end_ms: number } {
  const start = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  if ('minutes' in duration) return { start_ms: start, end_ms: start + duration.minutes * MINUTE_MS };
  const zone = getIanaZone(timezone);
  const tomorrow = parseIsoDate(formatIsoDate(instantToWall(zone, now) + DAY_MS))!;
  return { start_ms: start, end_ms: startOfLocalDay(zone, tomorrow) };
}

