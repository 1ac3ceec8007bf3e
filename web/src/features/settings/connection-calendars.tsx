/**
 * Settings → My Calendars → a connection's calendars (issue 23): one switch per calendar the
 * provider lists ("Counts as busy"), as cal.com's "check for conflicts". Holidays, birthdays and
 * other people's calendars start off; the owner's own calendars on. A switch saves at once
 * (`PUT /me/calendar/connections/{id}/calendars`): the server re-derives the connection before it
 * answers, so the public page follows at once. Calendars listed since the owner last looked are
 * marked "New". REST only: the device database does not hold the calendar list.
 */
import { useEffect, useId, useState } from 'react';
import { api, serverMessage } from '@avail/shared/api/api-client.ts';
import type { ConnectionCalendar } from '@avail/shared/schemas/calendar.schema.ts';
import { useAlert } from '../../components/ui/alert.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import './connection-calendars.css';

/** "2 of 4 calendars count as busy" (the summary while the list is closed). */
function busySummary(included: number, total: number): string {
  if (total <= 0) return 'No calendars listed yet';
  if (total === 1) return included === 1 ? '1 calendar, counts as busy' : '1 calendar, not counted as busy';
  return `${included} of ${total} calendars count as busy`;
}

/** The calendars of one connection with their switches; `onChanged` after a save (the list's counts refresh). */
export function ConnectionCalendars({
  connectionId,
  connectionName,
  total,
  included,
  onChanged,
}: {
  connectionId: string;
  connectionName: string;
  total: number;
  included: number;
  onChanged?: () => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [calendars, setCalendars] = useState<ConnectionCalendar[] | null>(null);
  const [saving, setSaving] = useState<string | null>(null);
  const [error, setError] = useState('');
  const alert = useAlert();

  useEffect(() => {
    if (!open || calendars) return;
    let live = true;
    api.connectionCalendars(connectionId).then(
      (r) => live && setCalendars(r.calendars),
      (e) => live && setError(serverMessage(e) ?? 'Could not load the calendars. Please try again.'),
    );
    return () => {
      live = false;
    };
  }, [open, calendars, connectionId]);

  async function toggle(c: ConnectionCalendar, busy: boolean) {
    if (!calendars) return;
    const before = calendars;
    setCalendars(calendars.map((x) => (x.id === c.id ? { ...x, busy } : x)));
    setSaving(c.id);
    try {
      const r = await api.setConnectionCalendars(connectionId, [{ id: c.id, busy }]);
      setCalendars(r.calendars);
      alert.show('success', busy ? `${c.name} now counts as busy. Your public page follows it now.` : `${c.name} no longer makes you busy. Your public page follows it now.`);
      onChanged?.();
    } catch (err) {
      setCalendars(before);
      alert.show('error', serverMessage(err) ?? 'Could not save. Please try again.');
    } finally {
      setSaving(null);
    }
  }

  const counted = calendars ? calendars.filter((c) => c.busy).length : included;
  const listed = calendars ? calendars.length : total;
  return (
    <details className="connection-calendars" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        Calendars <span className="muted small">— {busySummary(counted, listed)}</span>
      </summary>
      {alert.node}
      {!calendars ? (
        error ? <p className="field-error small">{error}</p> : <p className="muted small">Loading…</p>
      ) : calendars.length === 0 ? (
        <p className="muted small">No calendars yet: they appear after the first successful sync.</p>
      ) : (
        <ul className="calendar-switches" aria-label={`Calendars of ${connectionName}`}>
          {calendars.map((c, i) => (
            <li key={c.id} className="calendar-switch" data-testid="calendar-switch">
              <span className="calendar-dot" style={c.color ? { background: c.color } : undefined} aria-hidden="true" />
              <label htmlFor={`${id}-${i}`} className="calendar-switch-label">
                <span className="calendar-switch-name">{c.name}</span>
                {c.new && <span className="badge badge-new">New</span>}
                <span id={`${id}-${i}-hint`} className="muted small calendar-switch-hint">
                  {c.busy ? 'Counts as busy' : 'Not counted: its events leave you free'}
                  {c.read_only ? ' · read-only' : ''}
                </span>
              </label>
              <Switch id={`${id}-${i}`} checked={c.busy} disabled={saving !== null} describedBy={`${id}-${i}-hint`} onCheckedChange={(on) => void toggle(c, on)} />
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
