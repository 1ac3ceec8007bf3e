/**
 * The system notification of a tray command the main process dropped without handing it to the
 * renderer (issue 25): the owner signed out before it could be carried out, it was clicked for
 * another account, or too many commands already waited. It says what the command was and why, in
 * the style of the renderer's own "failed" notices (en-GB, 24-hour times). Pure.
 *
 * Units: instants are UTC epoch milliseconds; zones are IANA names.
 */
import { proposalRoute, type DesktopNotification } from '@avail/shared/desktop/desktop-bridge.ts';
import type { DroppedReason, QueuedCommand } from './tray-command-queue.ts';
import { BUSY_ITEMS } from './tray-menu.ts';

const REASONS: Record<DroppedReason, string> = {
  'signed-out': 'You were signed out.',
  unverified: 'Verify your e-mail address in Avail first, then try again.',
  'other-account': 'It was clicked while another account was signed in, so it was not carried out for this one.',
  'too-many': 'Too many tray actions are already waiting for Avail to open. Open Avail and try again.',
};

/**
 * `command`'s notification: title "The busy block could not be added" or "The proposal could not be
 * confirmed / declined"; body what it was (`"Busy for the next 30 min" (clicked 14:05)`) and the
 * reason. `zone`: the owner's zone as last known (the computer's when undefined or unknown).
 */
export function droppedCommandNotice(command: QueuedCommand, reason: DroppedReason, zone?: string): DesktopNotification {
  if (command.type === 'busy') {
    const label = BUSY_ITEMS.find((i) => JSON.stringify(i.duration) === JSON.stringify(command.duration))?.label ?? 'Busy';
    const clicked = command.at === undefined ? '' : ` (clicked ${clockText(command.at, zone)})`;
    return { title: 'The busy block could not be added', body: `"${label}"${clicked}: ${REASONS[reason]}`, route: '/app/dashboard' };
  }
  return {
    title: `The proposal could not be ${command.action === 'confirm' ? 'confirmed' : 'declined'}`,
    body: `${command.action === 'confirm' ? 'Confirm' : 'Decline'} from the tray: ${REASONS[reason]}`,
    route: proposalRoute(command.id),
  };
}

function clockText(at: number, zone: string | undefined): string {
  const format = (timeZone: string | undefined) =>
    new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at));
  try {
    return format(zone);
  } catch {
    return format(undefined);
  }
}
