/**
 * Where confirmed meetings go (issue 24): GET/PUT /api/me/proposal-settings. The choices are the
 * calendars the owner's connections can write to — as the last sync listed them with their
 * provider's write permission (ProviderCalendar.readOnly: CalDAV current-user-privilege-set,
 * Google accessRole, Graph canEdit) — of connections whose provider can write (CalDAV, Apple,
 * Google, Microsoft; never an ICS feed) and that are not expired. The owner's choice is stored
 * sealed in `users.proposal_target`; unset, the first writable calendar of the oldest writable
 * connection is used — preferring one the owner's switches count as busy, so the meeting keeps
 * the time busy once its copy is synced; none writable → no calendar write (the .ics goes to the owner by e-mail).
 */
import type { CalendarTarget, ProposalSettings, WritableCalendar } from '@avail/shared/schemas/proposal.schema.ts';
import type { CalendarConnectionRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { validationFailed } from '../../http/errors.ts';
import { openContent, sealContent } from '../../lib/crypto.ts';
import { listConnections } from '../../store/calendars.repo.ts';
import { findOwnerContact, setProposalTarget } from '../../store/proposals.repo.ts';
import { calendarListOf, excludedCalendarIds, readChoices } from '../sync/index.ts';

const WRITING_PROVIDERS = new Set(['caldav', 'apple', 'google', 'microsoft']);

/** The text of a refused target (422 `errors.target`). */
const TARGET_NOT_WRITABLE = 'Avail cannot add events to this calendar. Choose another one.';

/** A writable calendar with its connection row (to write with). */
export interface ResolvedTarget extends WritableCalendar {
  connection: CalendarConnectionRow;
  /** Whether the owner's switches count this calendar as busy (a meeting there makes the time busy by itself). */
  countsBusy: boolean;
}

/** Every calendar the owner can have meetings written to: oldest connection first, each in its listed order. */
async function writableCalendars(deps: Deps, userId: string): Promise<ResolvedTarget[]> {
  const connections = (await listConnections(deps.db, userId, deps.config.AVAIL_SECRET_KEY))
    .filter((c) => WRITING_PROVIDERS.has(c.provider) && c.status !== 'expired')
    .sort((a, b) => Number(a.connected_at) - Number(b.connected_at) || (a.id < b.id ? -1 : 1));
  const out: ResolvedTarget[] = [];
  for (const connection of connections) {
    const list = calendarListOf(connection, deps.config.AVAIL_SECRET_KEY);
    const excluded = new Set(excludedCalendarIds(list, readChoices(connection, deps.config.AVAIL_SECRET_KEY)));
    for (const cal of list) {
      if (cal.readOnly) continue;
      out.push({
        connection,
        countsBusy: !excluded.has(cal.id),
        connection_id: connection.id,
        connection_name: connection.name,
        provider: connection.provider,
        calendar_id: cal.id,
        calendar_name: cal.name ?? connection.name,
        ...(cal.color ? { color: cal.color } : {}),
      });
    }
  }
  return out;
}

function readTarget(deps: Deps, sealed: string | null | undefined): CalendarTarget | null {
  if (!sealed) return null;
  try {
    const v = JSON.parse(openContent(sealed, deps.config.AVAIL_SECRET_KEY)) as CalendarTarget;
    return typeof v?.connection_id === 'string' && typeof v?.calendar_id === 'string' ? { connection_id: v.connection_id, calendar_id: v.calendar_id } : null;
  } catch {
    return null;
  }
}

const same = (a: CalendarTarget, b: CalendarTarget) => a.connection_id === b.connection_id && a.calendar_id === b.calendar_id;
const plain = ({ connection: _c, countsBusy: _b, ...rest }: ResolvedTarget): WritableCalendar => rest;

/** The default: the first writable calendar that counts as busy (oldest connection first), else the first writable one. */
const fallback = (calendars: ResolvedTarget[]) => calendars.find((c) => c.countsBusy) ?? calendars[0] ?? null;

/**
 * The calendar a confirmation writes to: `explicit` when given (must be writable, else 422
 * `errors.target`), else the owner's choice while it is still writable, else the first writable
 * calendar; null when the owner has none.
 */
export async function resolveTarget(deps: Deps, userId: string, explicit?: CalendarTarget | null): Promise<ResolvedTarget | null> {
  const calendars = await writableCalendars(deps, userId);
  if (explicit) {
    const found = calendars.find((c) => same(c, explicit));
    if (!found) throw validationFailed({ target: TARGET_NOT_WRITABLE });
    return found;
  }
  const chosen = readTarget(deps, (await findOwnerContact(deps.db, userId))?.proposal_target);
  return (chosen && calendars.find((c) => same(c, chosen))) || fallback(calendars);
}

/** GET /me/proposal-settings → `{ target, effective, calendars }` (ProposalSettings). */
export async function getProposalSettings(deps: Deps, userId: string): Promise<ProposalSettings> {
  const calendars = await writableCalendars(deps, userId);
  const target = readTarget(deps, (await findOwnerContact(deps.db, userId))?.proposal_target);
  const effective = (target && calendars.find((c) => same(c, target))) || fallback(calendars);
  return { target, effective: effective ? plain(effective) : null, calendars: calendars.map(plain) };
}

/**
 * PUT /me/proposal-settings: stores `target` (sealed; calendar ids are often e-mail addresses) or
 * clears it (null). @throws 422 `errors.target` when it is not one of the owner's writable calendars (nothing stored).
 */
export async function setProposalSettings(deps: Deps, userId: string, target: CalendarTarget | null): Promise<ProposalSettings> {
  if (target) {
    const calendars = await writableCalendars(deps, userId);
    if (!calendars.some((c) => same(c, target))) throw validationFailed({ target: TARGET_NOT_WRITABLE });
  }
  const sealed = target ? sealContent(JSON.stringify({ connection_id: target.connection_id, calendar_id: target.calendar_id }), deps.config.AVAIL_SECRET_KEY) : null;
  await setProposalTarget(deps.db, userId, sealed);
  return getProposalSettings(deps, userId);
}
