/**
 * The dashboard's "My Calendars" card (issue 23 item 5): how many calendars are connected and,
 * honestly, which of them need attention (in error or expired) — never "0 · 1 connected".
 */
import type { CalendarConnection } from '@avail/shared/api/api-client.ts';
import { PROVIDER_LABEL } from '../../lib/provider-labels.ts';

export interface CalendarsSummary {
  /** The big number: every connected calendar. */
  count: number;
  /** '2 connected · Manage →', '1 connected · 1 needs attention', or '' with none. */
  line: string;
  /** The calendars that need attention: 'Team rota (error)', 'Google Calendar (expired)'. */
  attention: string[];
}

/** See the module doc. */
export function calendarsSummary(conns: readonly Pick<CalendarConnection, 'name' | 'provider' | 'status'>[]): CalendarsSummary {
  const count = conns.length;
  if (count === 0) return { count, line: '', attention: [] };
  const broken = conns.filter((c) => c.status === 'error' || c.status === 'expired');
  const attention = broken.map((c) => `${c.name?.trim() || PROVIDER_LABEL[c.provider] || c.provider} (${c.status === 'expired' ? 'expired' : 'error'})`);
  const line = broken.length
    ? `${count} connected · ${broken.length} ${broken.length === 1 ? 'needs' : 'need'} attention`
    : `${count} connected · Manage →`;
  return { count, line, attention };
}
