/**
 * The system notifications that tell the owner how a tray command ended when it had to wait for
 * the device database (issue 25: the window was closed, the app was starting): "done" or "failed",
 * in the style of the proposal notifications (`proposal-notifier.ts`: en-GB, 24-hour times in the
 * owner's zone). Pure; each notification's click opens the dashboard (or the proposal).
 *
 * Units: instants are UTC epoch milliseconds; zones are IANA names.
 */
import { proposalRoute, type BusyDuration, type DesktopNotification } from '@avail/shared/desktop/desktop-bridge.ts';

/** Where a busy-block notification leads: the dashboard, whose week shows the block. */
const BUSY_NOTICE_ROUTE = '/app/dashboard';

function clock(zone: string, t: number): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(t));
}
function day(zone: string, t: number): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(t));
}

/** What the tray item said: `Busy for the next 30 min` … `Busy for the rest of today`. */
function busyItemText(duration: BusyDuration): string {
  if ('restOfToday' in duration) return 'Busy for the rest of today';
  return duration.minutes < 60 ? `Busy for the next ${duration.minutes} min` : `Busy for the next ${duration.minutes / 60} h`;
}

/** `15:30`, or `24:00` for a block that ends at local midnight (the rest of the day). */
function endClock(zone: string, end: number): string {
  const text = clock(zone, end);
  return text === '00:00' ? '24:00' : text;
}

/**
 * A busy block from the tray was added: title `Busy until 15:30`, body `Blocked 15:00–15:30
 * (Europe/Brussels) from the tray: visitors no longer see this time.`
 */
export function busyDoneNotice(block: { start_ms: number; end_ms: number }, zone: string): DesktopNotification {
  return {
    title: `Busy until ${endClock(zone, block.end_ms)}`,
    body: `Blocked ${clock(zone, block.start_ms)}–${endClock(zone, block.end_ms)} (${zone}) from the tray: visitors no longer see this time.`,
    route: BUSY_NOTICE_ROUTE,
  };
}

/**
 * A busy block from the tray could not be added. `reason`: `'over'` when its time had passed
 * before the app could add it (clicked at `at`), else the error's message.
 */
export function busyFailedNotice(duration: BusyDuration, at: number, zone: string, reason: 'over' | string): DesktopNotification {
  const what = `"${busyItemText(duration)}" (clicked ${day(zone, at)}, ${clock(zone, at)})`;
  return {
    title: 'The busy block could not be added',
    body: (reason === 'over' ? `${what} had already ended when Avail could add it.` : `${what} could not be saved: ${reason}`).slice(0, 1000),
    route: BUSY_NOTICE_ROUTE,
  };
}

/**
 * A proposal decided from the tray: title `Meeting confirmed` / `Proposed time declined`; body
 * `Vera Visitor, Tue 16 Jun, 10:00–10:30` (when the proposal is known), and when it was only
 * written on the device (offline) ` — sent when you are back online`.
 */
export function proposalDoneNotice(
  id: string,
  action: 'confirm' | 'decline',
  proposal: { name: string; start_ms: number; end_ms: number } | null,
  zone: string,
  onDeviceOnly: boolean,
): DesktopNotification {
  const what = proposal ? `${proposal.name}, ${day(zone, proposal.start_ms)}, ${clock(zone, proposal.start_ms)}–${clock(zone, proposal.end_ms)}` : 'From the tray';
  return {
    title: action === 'confirm' ? 'Meeting confirmed' : 'Proposed time declined',
    body: `${what}${onDeviceOnly ? ' — sent when you are back online' : ''}`.slice(0, 1000),
    route: proposalRoute(id),
  };
}

/** A proposal decision from the tray failed: the server's or the device's reason (`actionErrorText`). */
export function proposalFailedNotice(id: string, action: 'confirm' | 'decline', reason: string): DesktopNotification {
  return { title: `The proposal could not be ${action === 'confirm' ? 'confirmed' : 'declined'}`, body: reason.slice(0, 1000), route: proposalRoute(id) };
}
