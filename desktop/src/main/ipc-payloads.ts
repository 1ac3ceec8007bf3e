/**
 * Validation of what the renderer sends over IPC. The renderer is untrusted (it runs web content,
 * even if it is our own), so every payload is checked field by field and copied: a bad one is
 * refused as a whole (`null`), never partly used.
 */
import { TRAY_PROPOSALS_MAX, type BusyDuration, type DesktopCommand, type DesktopNotification, type TrayProposal, type TrayState, type TrayWindow } from '@avail/shared/desktop/desktop-bridge.ts';
import { isValidIanaZone } from '@avail/shared/domain/zone-time.ts';

/** At most this many windows (14 days of short windows is far fewer). */
const MAX_TRAY_WINDOWS = 2000;
/** Longest accepted `freeTimesText`, link/route and token (characters). */
const MAX_TEXT_LENGTH = 20_000;
const MAX_URL_LENGTH = 2048;
const MAX_TOKEN_LENGTH = 8192;

const CONNECTIONS: ReadonlySet<string> = new Set(['online', 'syncing', 'offline', 'outdated', 'unauthorized']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A finite number of UTC epoch ms within years 1970–2300. */
function isInstant(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 && v < 10_413_792_000_000;
}

function isWebUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** Longest proposal id and visitor name the tray accepts (the server's limits: 64, 100). */
const MAX_PROPOSAL_ID_LENGTH = 64;
const MAX_PROPOSAL_NAME_LENGTH = 100;

/**
 * The tray's pending proposals rebuilt from untrusted `value` (absent → []), or null when any is
 * wrong: at most {@link TRAY_PROPOSALS_MAX} `{ id, name, start, end }` — id a non-empty string of
 * at most 64 characters, name at most 100 without control characters, instants with start < end.
 */
function parseTrayProposals(value: unknown): TrayProposal[] | null {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > TRAY_PROPOSALS_MAX) return null;
  const out: TrayProposal[] = [];
  for (const p of value) {
    if (!isRecord(p)) return null;
    const { id, name, start, end } = p;
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_PROPOSAL_ID_LENGTH) return null;
    if (typeof name !== 'string' || name.length > MAX_PROPOSAL_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(name)) return null;
    if (!isInstant(start) || !isInstant(end) || !(start < end)) return null;
    out.push({ id, name, start, end });
  }
  return out;
}

/**
 * A {@link TrayState} rebuilt from untrusted `value`, or null when any field is wrong:
 * `signedIn` boolean; `connection` one of the five statuses; `pendingCount` a non-negative safe
 * integer; `timezone` a known IANA zone; `windows` at most {@link MAX_TRAY_WINDOWS} `{start, end}`
 * instants (UTC ms) with `start < end`; `link` null or an http(s) URL; `freeTimesText` null or a
 * string of at most {@link MAX_TEXT_LENGTH} characters; `computedAt` an instant; `proposals` as
 * {@link parseTrayProposals}; `syncing` absent or a boolean (issue 25; kept only when true);
 * `unverified` absent or a boolean (kept only when true and signed out).
 * Extra properties are dropped.
 */
export function parseTrayState(value: unknown): TrayState | null {
  if (!isRecord(value)) return null;
  const { signedIn, connection, pendingCount, timezone, windows, link, freeTimesText, computedAt } = value;
  const proposals = parseTrayProposals(value.proposals);
  if (proposals === null) return null;
  if (typeof signedIn !== 'boolean') return null;
  if (typeof connection !== 'string' || !CONNECTIONS.has(connection)) return null;
  if (typeof pendingCount !== 'number' || !Number.isSafeInteger(pendingCount) || pendingCount < 0) return null;
  if (!isValidIanaZone(timezone)) return null;
  if (!Array.isArray(windows) || windows.length > MAX_TRAY_WINDOWS) return null;
  const copied: TrayWindow[] = [];
  for (const w of windows) {
    if (!isRecord(w) || !isInstant(w.start) || !isInstant(w.end) || !(w.start < w.end)) return null;
    copied.push({ start: w.start, end: w.end });
  }
  if (link !== null && (typeof link !== 'string' || link.length > MAX_URL_LENGTH || !isWebUrl(link))) return null;
  if (freeTimesText !== null && (typeof freeTimesText !== 'string' || freeTimesText.length > MAX_TEXT_LENGTH)) return null;
  if (!isInstant(computedAt)) return null;
  if (value.syncing !== undefined && typeof value.syncing !== 'boolean') return null;
  if (value.unverified !== undefined && typeof value.unverified !== 'boolean') return null;
  return {
    signedIn,
    connection: connection as TrayState['connection'],
    pendingCount,
    timezone,
    windows: copied,
    link,
    freeTimesText,
    computedAt,
    ...(value.proposals === undefined ? {} : { proposals }),
    ...(value.syncing === true ? { syncing: true } : {}),
    ...(value.unverified === true && !signedIn ? { unverified: true } : {}),
  };
}

/** An in-app route: starts with one `/` (not `//`, not a URL), no backslash or control character. */
function isAppRoute(route: unknown): route is string {
  return typeof route === 'string' && route.length <= MAX_URL_LENGTH && /^\/(?![/\\])/.test(route) && !/[\\\u0000-\u001f\u007f]/.test(route);
}

/**
 * A {@link DesktopNotification} rebuilt from untrusted `value`, or null: `title` a non-empty string
 * of at most 200 characters, `body` at most 1000, `route` an in-app route ({@link isAppRoute}).
 */
export function parseDesktopNotification(value: unknown): DesktopNotification | null {
  if (!isRecord(value)) return null;
  const { title, body, route } = value;
  if (typeof title !== 'string' || title.trim() === '' || title.length > 200) return null;
  if (typeof body !== 'string' || body.length > 1000) return null;
  if (!isAppRoute(route)) return null;
  return { title, body, route };
}

/** A token to save: a non-empty string of at most {@link MAX_TOKEN_LENGTH} printable ASCII characters. */
export function isTokenArgument(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TOKEN_LENGTH && /^[\x21-\x7e]+$/.test(value);
}

/** The tray's "Busy for …" lengths in minutes. */
const BUSY_MINUTES: ReadonlySet<unknown> = new Set([30, 60, 120]);

function parseBusyDuration(value: unknown): BusyDuration | null {
  if (!isRecord(value)) return null;
  if (value.restOfToday === true && value.minutes === undefined) return { restOfToday: true };
  if (BUSY_MINUTES.has(value.minutes) && value.restOfToday === undefined) return { minutes: value.minutes as 30 | 60 | 120 };
  return null;
}

/** How far ahead of this computer's clock a command's click instant may be (a clock step back, not more). */
const MAX_COMMAND_AHEAD_MS = 60_000;

/** A tray command id (`crypto.randomUUID` or similar): 1–64 characters of letters, digits, `-` and `_`. */
export function isCommandId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value);
}

/**
 * A tray command that waits for the device database (issue 25) rebuilt from untrusted `value` —
 * the queue file read back from disk — or null: `{ type: 'busy', duration, at }` (duration one of
 * the tray's four, `at` the click instant, UTC ms, at most {@link MAX_COMMAND_AHEAD_MS} after
 * `now`) or `{ type: 'proposal', id, action }` (id as {@link parseTrayProposals}, action
 * confirm | decline), each with an optional `commandId` ({@link isCommandId}). Extra properties
 * are dropped; `queued` is set by the queue when it delivers, never read from disk.
 */
export function parseQueuedCommand(value: unknown, now: number = Date.now()): (Extract<DesktopCommand, { type: 'busy' | 'proposal' }> & { commandId?: string }) | null {
  if (!isRecord(value)) return null;
  if (value.commandId !== undefined && !isCommandId(value.commandId)) return null;
  const commandId = value.commandId === undefined ? {} : { commandId: value.commandId as string };
  if (value.type === 'busy') {
    const duration = parseBusyDuration(value.duration);
    if (!duration || !isInstant(value.at) || value.at > now + MAX_COMMAND_AHEAD_MS) return null;
    return { type: 'busy', duration, at: value.at, ...commandId };
  }
  if (value.type === 'proposal') {
    const { id, action } = value;
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_PROPOSAL_ID_LENGTH) return null;
    if (action !== 'confirm' && action !== 'decline') return null;
    return { type: 'proposal', id, action, ...commandId };
  }
  return null;
}

/** A user id the renderer reports with `commandsReady`: 1–64 printable ASCII characters. */
export function isUserIdArgument(value: unknown): value is string {
  return typeof value === 'string' && /^[\x21-\x7e]{1,64}$/.test(value);
}
