/**
 * Re-derivation from stored sources (no network): after the owner changes busy rules, calendar
 * switches or their zone, or when such a change landed while a sync ran. Runs the shared engine in
 * the derive pool (derive-pool.ts) over the connection's stored raw sources for the sync horizon
 * and replaces its events and busy intervals in one replicated write; a derivation that fails
 * (DeriveError: unreadable data, a budget exceeded) leaves the last good busy intervals and shows
 * 'error' with the reason on the connection.
 */
import { readBusyRules } from '@avail/shared/ical/busy-rules.ts';
import type { CalendarConnectionRow } from '../../db/schema.ts';
import { isPullProvider } from '../../providers/index.ts';
import { isOAuthProvider } from '../../providers/oauth-registry.ts';
import * as repo from '../../store/calendars.repo.ts';
import { replicatedWrite } from '../../store/repl-clock.repo.ts';
import { openCalendarList } from './calendar-selection.ts';
import { DeriveError } from './derive.ts';
import { deriveOffThread } from './derive-pool.ts';
import { ownerEmailsFor, ownerOf, readState, selectionOf, type SyncDeps, type SyncOutcome } from './sync-state.ts';

/**
 * After a sync wrote what it derived: when the owner saved other busy rules or another zone while
 * the sync ran (it derived with the values it read at its start), re-derives the connection from
 * the sources just stored with the current values, so the last write follows the owner's last
 * change (a save that lands after this check re-derives by itself).
 */
export async function rederiveIfInputsChanged(deps: SyncDeps, conn: CalendarConnectionRow, usedZone: string): Promise<void> {
  const fresh = await repo.findConnectionById(deps.db, conn.id, deps.config.AVAIL_SECRET_KEY);
  if (!fresh) return;
  const owner = await ownerOf(deps, conn.user_id);
  if (fresh.busy_rules_json === conn.busy_rules_json && fresh.calendar_choices === conn.calendar_choices && owner.timezone === usedZone) return;
  deps.logger.info({ connectionId: conn.id }, 'busy rules, calendar switches or zone changed during the sync: re-deriving');
  await rederiveConnection(deps, fresh);
}

/** Re-derives one connection from its stored sources (no network). */
export async function rederiveConnection(deps: SyncDeps, conn: CalendarConnectionRow): Promise<SyncOutcome> {
  const owner = await ownerOf(deps, conn.user_id);
  const stored = readState(conn);
  const sources = (await repo.listSources(deps.db, conn.id, deps.config.AVAIL_SECRET_KEY)).map((s) => ({ icsText: s.ics_text, calendarUrl: s.calendar_url }));
  const now = deps.now();
  const calendarList = openCalendarList(stored?.calendarsSealed, deps.config.AVAIL_SECRET_KEY);
  const selection = selectionOf(deps, conn, calendarList);
  try {
    const derived = await deriveOffThread(sources, {
      ownerZone: owner.timezone,
      ownerEmails: ownerEmailsFor(owner.email, stored?.ownerEmails ?? []),
      now,
      busyRules: readBusyRules(conn.busy_rules_json),
      excludedCalendars: selection.excludedCalendars,
    });
    await replicatedWrite(deps, conn.user_id, async (trx, stamp) => {
      await repo.replaceDerived(trx, conn, derived, stamp, deps.config.AVAIL_SECRET_KEY);
      await repo.updateConnection(
        trx,
        conn,
        {
          warnings_json: derived.warnings.length ? JSON.stringify(derived.warnings) : null,
          ...(stored ? { sync_state_json: JSON.stringify({ ...stored, derivedAt: now }) } : {}),
          ...(calendarList.length ? { included_calendars_count: selection.included } : {}),
        },
        stamp,
        deps.config.AVAIL_SECRET_KEY,
      );
    });
    return { connectionId: conn.id, ok: true, notModified: true };
  } catch (err) {
    const message = err instanceof DeriveError ? err.message : 'Calendar data could not be read.';
    await replicatedWrite(deps, conn.user_id, (trx, stamp) =>
      repo.updateConnection(trx, conn, { status: 'error', last_error: message }, stamp),
    );
    return { connectionId: conn.id, ok: false, notModified: true, error: message };
  }
}

/**
 * The owner's time zone changed: floating and all-day events follow the new zone at once
 * (availability-semantics detail 14). Re-derives every connection of the user from stored
 * sources; no network. Call after the new zone is saved.
 */
export async function rederiveZoneDependentBusy(deps: SyncDeps, userId: string): Promise<SyncOutcome[]> {
  const conns = await repo.listConnections(deps.db, userId, deps.config.AVAIL_SECRET_KEY);
  const out: SyncOutcome[] = [];
  for (const conn of conns) {
    if (!isPullProvider(conn.provider) && !isOAuthProvider(conn.provider)) continue;
    out.push(await rederiveConnection(deps, conn));
  }
  return out;
}
