/**
 * The owner's side of honest freshness (issue 14 item 3): which connected calendars make the public
 * page say "Availability may be out of date", and what fixes each. Same rule as the server
 * (server/src/modules/public/public-freshness.ts): in error, expired, never synced, or not synced
 * for 30 minutes (twice the backup interval).
 */
import type { CalendarConnection } from '@avail/shared/api/api-client.ts';
import { BACKUP_SYNC_INTERVAL_MS } from '@avail/shared/constants.ts';
import { PROVIDER_LABEL } from '../../lib/provider-labels.ts';

export interface StaleCalendar {
  id: string;
  /** "Work (ICS feed)". */
  label: string;
  /** What is wrong, in the owner's words. */
  problem: string;
  /** What to do about it. */
  fix: string;
}

/** Connections that make the public answer stale at `now` (UTC ms), with the problem and the fix. */
export function staleCalendars(conns: readonly CalendarConnection[], now: number): StaleCalendar[] {
  const out: StaleCalendar[] = [];
  for (const c of conns) {
    const kind = PROVIDER_LABEL[c.provider] ?? c.provider;
    const label = c.name ? `${c.name} (${kind})` : kind;
    const synced = c.last_synced_at ? Date.parse(c.last_synced_at) : null;
    if (c.status === 'expired') {
      out.push({ id: String(c.id), label, problem: c.last_error || 'Its authorization has expired.', fix: 'Reconnect it in Settings → My Calendars.' });
    } else if (c.status === 'error') {
      out.push({ id: String(c.id), label, problem: c.last_error || 'The last sync failed.', fix: 'Check it in Settings → My Calendars and use Sync Now; Avail retries on its own meanwhile.' });
    } else if (synced === null || now - synced > 2 * BACKUP_SYNC_INTERVAL_MS) {
      out.push({ id: String(c.id), label, problem: synced === null ? 'It has not synced yet.' : 'It has not synced for more than 30 minutes.', fix: 'Use Sync Now in Settings → My Calendars.' });
    }
  }
  return out;
}
