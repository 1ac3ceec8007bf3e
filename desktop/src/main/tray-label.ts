/**
 * The tray's status line ("Free now until 15:30", "Busy — next free Tue 09:00–11:00"): pure,
 * written in the owner's zone with 24-hour times. Used as the tooltip and as the first (disabled)
 * item of the tray menu; the tray controller recomputes it every minute from the last state.
 */
import type { TrayState, TrayWindow } from '@avail/shared/desktop/desktop-bridge.ts';
import { DAY_MS, UTC_ZONE, fieldsFromWall, getIanaZone, instantToWall, wallDay, weekdayOfDay, type TimeZone } from '@avail/shared/domain/zone-time.ts';

/** How far ahead the renderer computes windows (the "no free time" line says so). */
const TRAY_HORIZON_DAYS = 14;

/** The status line when signed out, and when there is no free window left. */
export const SIGNED_OUT_TEXT = 'Not signed in';
/** The label of an owner signed in whose e-mail address is not verified yet (issue 25). */
const UNVERIFIED_TEXT = 'Verify your e-mail in Avail';
export const NO_FREE_TIME_TEXT = `Busy — no free time in the next ${TRAY_HORIZON_DAYS} days`;
/**
 * The status line of a signed-in owner whose device has not pulled yet (issue 25) when no known
 * free window lies ahead: the last known windows have all passed (or there are none yet), which
 * says nothing about the time after them.
 */
export const SYNCING_TEXT = 'Syncing…';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/**
 * The tray's status text for `state` at instant `now`.
 *
 * - signed out → `Not signed in` (`Verify your e-mail in Avail` for an owner not yet verified);
 * - inside a free window → `Free now until 15:30`: the end of the contiguous free run (windows that
 *   touch or overlap are one run); on another local day `Free now until Tue 09:00`; a run ending
 *   exactly at local midnight is written as 24:00 of the day before (`until 24:00` tonight);
 * - otherwise the next window → `Busy — next free today 14:00–15:00` when it starts today, else
 *   `Busy — next free Tue 09:00–11:00`; an end on another local day carries its weekday
 *   (`today 22:00–Wed 02:00`);
 * - no window left → `Busy — no free time in the next 14 days`; but while `state.syncing` (the
 *   last known windows of a device that has not pulled yet, issue 25) → `Syncing…`, since the
 *   stored windows say nothing about the time after them.
 *
 * Days 7 or more local days away carry the date too (`Tue 10 Mar 09:00`), so a weekday is never
 * ambiguous within the 14-day horizon. Windows with `end <= now` are ignored (the state may be up
 * to a minute old); the windows need not be sorted.
 *
 * @param state the renderer's tray state (times UTC epoch ms, `timezone` an IANA name; an unknown
 *   zone falls back to UTC rather than throwing — the IPC layer refuses unknown zones anyway).
 * @param now the current instant, UTC epoch ms.
 */
export function trayStatusText(state: TrayState, now: number): string {
  if (!state.signedIn) return state.unverified ? UNVERIFIED_TEXT : SIGNED_OUT_TEXT;
  const next = nextFree(state, now);
  if (!next) return state.syncing ? SYNCING_TEXT : NO_FREE_TIME_TEXT;
  if (next.now) return `Free now until ${next.end}`;
  return `Busy — next free ${next.startDay === 'today' ? 'today' : next.startDay} ${next.startClock}–${next.end}`;
}

/** The text beside the macOS menu-bar icon when there is no free window left (signed in, not syncing). */
const NO_FREE_TIME_TITLE = 'No free time';

/**
 * The short text beside the tray icon in the macOS menu bar (`tray.setTitle`, the "Show next free
 * time in the menu bar" option), from the same rules as {@link trayStatusText}: `Free until 15:30`
 * (`Free until Tue 09:00`), `Next free 14:00` today, `Next free Tue 09:00` on another day,
 * `No free time`; `''` (no text) when signed out, unverified, or syncing without a known window ahead.
 */
export function trayTitleText(state: TrayState, now: number): string {
  if (!state.signedIn) return '';
  const next = nextFree(state, now);
  if (!next) return state.syncing ? '' : NO_FREE_TIME_TITLE;
  if (next.now) return `Free until ${next.end}`;
  return next.startDay === 'today' ? `Next free ${next.startClock}` : `Next free ${next.startDay} ${next.startClock}`;
}

/**
 * The first free run ahead of `now` in the owner's zone, as the tray writes it: inside it → its end
 * (`15:30`, `Tue 09:00`, `24:00`); else its start day (`today`, `Tue`, `Tue 10 Mar`), start clock and
 * end relative to the start day. null when no window lies ahead.
 */
function nextFree(state: TrayState, now: number): { now: true; end: string } | { now: false; startDay: string; startClock: string; end: string } | null {
  const zone = zoneOrUtc(state.timezone);
  const runs = mergeRuns(state.windows.filter((w) => w.end > now && w.end > w.start));
  if (runs.length === 0) return null;
  const today = wallDay(instantToWall(zone, now));
  const first = runs[0];
  if (first.start <= now) return { now: true, end: formatEnd(zone, first.end, today, today) };
  const startDay = wallDay(instantToWall(zone, first.start));
  return { now: false, startDay: startDay === today ? 'today' : dayLabel(startDay, today), startClock: clock(zone, first.start), end: formatEnd(zone, first.end, startDay, today) };
}

/**
 * A proposal's time in the owner's zone relative to `now`: `today 10:00–10:45`, `Tue 10:00–10:45`,
 * `Tue 10 Mar 10:00–10:45` (a week or more away), an end on another day with its day
 * (`today 23:00–Wed 00:30`). Unknown zones fall back to UTC.
 */
export function proposalTimeText(timezone: string, start: number, end: number, now: number): string {
  const zone = zoneOrUtc(timezone);
  const today = wallDay(instantToWall(zone, now));
  const startDay = wallDay(instantToWall(zone, start));
  const day = startDay === today ? 'today' : dayLabel(startDay, today);
  return `${day} ${clock(zone, start)}–${formatEnd(zone, end, startDay, today)}`;
}

/**
 * When the tray's windows were computed, for a state that has not been refreshed by a pull yet
 * (issue 25), in the owner's zone relative to `now` (UTC ms): `09:12` today, `Tue 09:12` within
 * the last six days, `10 Mar 09:12` before that (and for an instant after `now`, a clock skew).
 */
export function computedAtText(timezone: string, computedAt: number, now: number): string {
  const zone = zoneOrUtc(timezone);
  const today = wallDay(instantToWall(zone, now));
  const day = wallDay(instantToWall(zone, computedAt));
  if (day === today) return clock(zone, computedAt);
  if (day < today && today - day < 7) return `${WEEKDAYS[weekdayOfDay(day)]} ${clock(zone, computedAt)}`;
  const f = fieldsFromWall(day * DAY_MS);
  return `${f.d} ${MONTHS[f.m - 1]} ${clock(zone, computedAt)}`;
}

/**
 * Whether "Copy my next free times" still tells the truth at `now`: always for a state the
 * renderer has just computed; for the last known state of a device that has not pulled yet (issue
 * 25) only while none of the times its text lists has ended (the text lists the windows from the
 * first one on) — or when it lists none.
 */
export function freeTimesTextCurrent(state: TrayState, now: number): boolean {
  if (!state.freeTimesText) return false;
  if (!state.syncing) return true;
  return state.windows.every((w) => w.end > now);
}

/** Sorted runs of windows, merged where they touch or overlap (`[start, end)`, UTC ms). */
export function mergeRuns(windows: readonly TrayWindow[]): TrayWindow[] {
  const sorted = [...windows].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: TrayWindow[] = [];
  for (const w of sorted) {
    const last = out[out.length - 1];
    if (last && w.start <= last.end) last.end = Math.max(last.end, w.end);
    else out.push({ start: w.start, end: w.end });
  }
  return out;
}

function zoneOrUtc(name: string): TimeZone {
  try {
    return getIanaZone(name);
  } catch {
    return UTC_ZONE;
  }
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** `HH:MM` of an instant in `zone`. */
function clock(zone: TimeZone, t: number): string {
  const f = fieldsFromWall(instantToWall(zone, t));
  return `${pad(f.h)}:${pad(f.mi)}`;
}

/** `Tue`, or `Tue 10 Mar` when the day is a week or more from `today` (day numbers). */
function dayLabel(day: number, today: number): string {
  const weekday = WEEKDAYS[weekdayOfDay(day)];
  if (day - today < 7) return weekday;
  const f = fieldsFromWall(day * DAY_MS);
  return `${weekday} ${f.d} ${MONTHS[f.m - 1]}`;
}

/**
 * The end of a run, relative to local day `refDay`: `15:30` on that day, `Tue 09:00` on another;
 * an end at exactly 00:00 local is 24:00 of the day before (`24:00`, or `Tue 24:00`). `today`
 * decides whether the day needs its date (see {@link dayLabel}).
 */
function formatEnd(zone: TimeZone, end: number, refDay: number, today: number): string {
  const wall = instantToWall(zone, end);
  const f = fieldsFromWall(wall);
  let day = wallDay(wall);
  let time = `${pad(f.h)}:${pad(f.mi)}`;
  if (f.h === 0 && f.mi === 0) {
    day -= 1;
    time = '24:00';
  }
  return day === refDay ? time : `${dayLabel(day, today)} ${time}`;
}
