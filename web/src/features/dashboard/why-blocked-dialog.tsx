/**
 * "Why is this time blocked?" (issue 14 item 6): opened from a block of the owner's week preview.
 * For a calendar event it asks the server where the event comes from (connection, calendar, title,
 * UID, single / repeating / moved instance) and shows the connection's parse warnings; for a manual
 * busy block it says so with the owner's note. Owner-only: nothing of this is on the public page.
 * Times read in the owner's format choice (useOwnerFormats).
 */
import { useEffect, useState } from 'react';
import { api, serverMessage, type EventSource } from '@avail/shared/api/api-client.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { useOwnerFormats } from '../../data/use-owner-formats.ts';
import { PROVIDER_LABEL } from '../../lib/provider-labels.ts';

/** What the dialog explains: an event of a connected calendar, or a busy block added by hand. */
export type BlockedSource =
  | { kind: 'event'; id: string | number; title: string }
  | { kind: 'manual'; startMs: number; endMs: number; note: string | null };

/** The sentence saying how the event got into the calendar data. */
function originText(origin: EventSource['event']['origin']): string {
  switch (origin) {
    case 'single':
      return 'A single event (no repeat rule).';
    case 'recurring':
      return 'One occurrence of a repeating event (RRULE/RDATE).';
    case 'override':
      return 'A changed occurrence of a repeating event (RECURRENCE-ID override).';
    default:
      return 'Not recorded yet: it appears after the next sync of this calendar.';
  }
}

/** Why the event blocks time, or why it does not. */
function busyText(ev: Pick<EventSource['event'], 'is_busy' | 'all_day'>, calendarBusy = true): string {
  if (!calendarBusy) return 'It does not block your time: its calendar does not count as busy (Settings → My Calendars → Calendars).';
  if (!ev.is_busy) return 'It does not block your time: it is cancelled, marked free, declined, or freed by this calendar’s busy rules.';
  return ev.all_day ? 'It blocks the whole day: all-day events count as busy under this calendar’s busy rules.' : 'It blocks this time: an event that is not cancelled, marked free or declined counts as busy.';
}

export function WhyBlockedDialog({ source, timezone, onClose }: { source: BlockedSource | null; timezone: string; onClose: () => void }) {
  const [data, setData] = useState<EventSource | null>(null);
  const [error, setError] = useState('');
  const eventId = source?.kind === 'event' ? source.id : null;
  const fmt = useOwnerFormats();

  useEffect(() => {
    setData(null);
    setError('');
    if (eventId === null) return;
    let live = true;
    api.eventSource(eventId).then(
      (d) => live && setData(d),
      (e) => live && setError(serverMessage(e) ?? 'The source of this event could not be loaded. Check your connection and try again.'),
    );
    return () => {
      live = false;
    };
  }, [eventId]);

  return (
    <Dialog open={source !== null} onOpenChange={(o) => !o && onClose()} title="Why is this time blocked?">
      {source?.kind === 'manual' && (
        <dl className="why-blocked" data-testid="why-blocked">
          <dt>Source</dt>
          <dd>A busy block you added by hand.</dd>
          <dt>When</dt>
          <dd>{fmt.instantRange(source.startMs, source.endMs, timezone)}</dd>
          {source.note && (
            <>
              <dt>Your note</dt>
              <dd>{source.note}</dd>
            </>
          )}
        </dl>
      )}
      {source?.kind === 'event' && !data && !error && <p className="muted">Loading…</p>}
      {error && <p className="field-error">{error}</p>}
      {data && (
        <dl className="why-blocked" data-testid="why-blocked">
          <dt>Event</dt>
          <dd>{data.event.title || '(no title)'}</dd>
          <dt>When</dt>
          <dd>{data.event.all_day ? `${fmt.instantRange(Date.parse(data.event.start), Date.parse(data.event.end), timezone)} (all day)` : fmt.instantRange(Date.parse(data.event.start), Date.parse(data.event.end), timezone)}</dd>
          <dt>Why</dt>
          <dd>{busyText(data.event, data.calendar_busy ?? true)}</dd>
          <dt>Kind</dt>
          <dd>{originText(data.event.origin)}</dd>
          <dt>Calendar</dt>
          <dd>
            {data.calendar ?? 'Unknown'} · {data.connection.name} ({PROVIDER_LABEL[data.connection.provider] ?? data.connection.provider})
          </dd>
          <dt>UID</dt>
          <dd>
            <code className="uid">{data.event.uid || '(none)'}</code>
          </dd>
          <dt>Calendar warnings</dt>
          <dd>
            {data.connection.warnings.length === 0 ? (
              'None: every event of this calendar was read.'
            ) : (
              <ul className="why-warnings">
                {data.connection.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
      )}
      <p className="muted small">Only you see this. Visitors of your public page see free times only.</p>
    </Dialog>
  );
}
