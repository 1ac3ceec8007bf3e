/**
 * Date overrides (availability exceptions; availability-semantics.md): a date with any exception
 * ignores its weekly rules and offers exactly the exceptions' windows; both times null is a day
 * off. Written to the device database first (synced by the replication), REST until it has synced.
 */
import { useRef, useState } from 'react';
import { api, type AvailabilityException } from '@avail/shared/api/api-client.ts';
import { deleteExceptionLocal, putExceptionLocal } from '@avail/shared/rx/local-writes.ts';
import { useLocalData, useLocalExceptions, usePendingKeys } from '../../data/local-data.tsx';
import { useOwnerFormats } from '../../data/use-owner-formats.ts';
import type { LocalData } from '../../data/local-db.ts';
import { useAlert } from '../../components/ui/alert.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { TimeInput } from '../../components/time-input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { dateInZone, to12h } from '../../lib/time.ts';
import { useStore } from './use-store.ts';

interface Override {
  id: string;
  date: string;
  start_time_local: string | null;
  end_time_local: string | null;
  pending?: boolean;
}
/** The overrides of one date, as listed. */
interface DateGroup {
  date: string;
  items: Override[];
  /** Custom-hours windows sorted by start; empty = unavailable all day. */
  windows: { start: string; end: string }[];
  pending: boolean;
}

/** Groups upcoming overrides (date ≥ today) by date; windows in start order. */
export function groupOverrides(list: Override[], today: string): DateGroup[] {
  const byDate = new Map<string, Override[]>();
  for (const o of list) {
    if (!o.date || o.date < today) continue;
    byDate.set(o.date, [...(byDate.get(o.date) ?? []), o]);
  }
  return [...byDate.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, items]) => ({
      date,
      items,
      windows: items
        .filter((i) => i.start_time_local && i.end_time_local)
        .map((i) => ({ start: i.start_time_local!, end: i.end_time_local! }))
        .sort((a, b) => a.start.localeCompare(b.start)),
      pending: items.some((i) => i.pending),
    }));
}

const fromRest = (e: AvailabilityException): Override => ({
  id: String(e.id),
  date: e.date ?? '',
  start_time_local: e.start_time_local ?? null,
  end_time_local: e.end_time_local ?? null,
});

/** The 'Date overrides' card of the Availability screen. */
export function DateOverridesCard({ timezone }: { timezone: string }) {
  const local = useLocalData();
  const fromDevice = Boolean(local.data && local.synced);
  const localExceptions = useLocalExceptions(local.data, local.synced);
  const pendingKeys = usePendingKeys(local.data);
  const rest = useStore('exceptions', () => api.exceptions(), !fromDevice);
  const useDevice = fromDevice && localExceptions !== undefined;
  const list: Override[] | undefined = useDevice
    ? localExceptions.map((d) => ({ ...d, pending: pendingKeys.includes(`availability_exceptions/${d.id}`) }))
    : rest.data?.exceptions.map(fromRest);
  const today = dateInZone(Date.now(), timezone);
  const fmt = useOwnerFormats();
  const groups = list ? groupOverrides(list, today) : [];
  const [adding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  /** Closes the dialog and gives focus back to 'Add override'. */
  const closeDialog = () => {
    setAdding(false);
    setTimeout(() => addButton.current?.focus(), 0);
  };
  const [removing, setRemoving] = useState<string | null>(null);
  const alert = useAlert();
  const db = useDevice ? local.data : null;

  async function afterWrite() {
    if (!db) await rest.reload(true);
  }

  async function remove(g: DateGroup) {
    setRemoving(g.date);
    try {
      await removeOverrides(db, g.items);
      await afterWrite();
      alert.show('success', 'Date override removed.');
    } catch {
      alert.show('error', 'Failed to remove the date override. Please try again.');
    } finally {
      setRemoving(null);
    }
  }

  return (
    <section className="card" aria-labelledby="overrides-title" data-testid="date-overrides">
      <div className="card-header wrap">
        <div>
          <h2 id="overrides-title" className="card-title">
            Date overrides
          </h2>
          <p className="muted small">Take a day off or set special hours for one date. It replaces your weekly hours on that date.</p>
        </div>
        <button ref={addButton} type="button" className="btn btn-secondary btn-sm" onClick={() => setAdding(true)} disabled={!list}>
          Add override
        </button>
      </div>
      {alert.node}
      {!list ? (
        rest.error && !useDevice ? (
          <p>Failed to load your date overrides.</p>
        ) : (
          <div className="center-block">
            <Spinner size={20} label="Loading date overrides" />
          </div>
        )
      ) : groups.length === 0 ? (
        <p className="muted" data-testid="overrides-empty">
          No upcoming date overrides.
        </p>
      ) : (
        <ul className="override-list">
          {groups.map((g) => (
            <li key={g.date} className="override-row" data-testid="override-row">
              <span className="override-date">{fmt.dateWithWeekday(g.date)}</span>
              <span className="day-slots">
                {g.windows.length === 0 ? (
                  <span className="override-off">Unavailable all day</span>
                ) : (
                  g.windows.map((w) => (
                    <span key={`${w.start}-${w.end}`} className={`slot-pill${g.pending ? ' pending' : ''}`}>
                      {to12h(w.start)} - {to12h(w.end)}
                    </span>
                  ))
                )}
                {g.pending && <span className="badge badge-pending">Pending sync</span>}
              </span>
              <button
                type="button"
                className="btn btn-secondary btn-sm override-remove"
                aria-label={`Remove override for ${fmt.dateWithWeekday(g.date)}`}
                disabled={removing === g.date}
                onClick={() => void remove(g)}
              >
                {removing === g.date ? 'Removing...' : 'Remove'}
              </button>
            </li>
          ))}
        </ul>
      )}
      {adding && list && (
        <AddOverrideDialog
          today={today}
          existing={list}
          local={db}
          onClose={closeDialog}
          onSaved={async () => {
            closeDialog();
            await afterWrite();
            alert.show('success', 'Date override saved.');
          }}
        />
      )}
    </section>
  );
}

async function removeOverrides(local: LocalData | null, items: Override[]): Promise<void> {
  for (const i of items) {
    if (local) await deleteExceptionLocal(local.db, local.deviceId, i.id);
    else await api.deleteException(i.id);
  }
}

/** Validates the add-override form; '' when valid (spec §8 messages where they exist). */
export function validateOverride(f: { date: string; mode: 'off' | 'custom'; start: string; end: string }, today: string): string {
  if (!f.date) return 'Please choose a date';
  if (f.date < today) return 'Please choose today or a later date';
  if (f.mode === 'custom') {
    if (!f.start || !f.end) return 'Please fill in all time fields';
    if (f.end <= f.start) return 'End time must be after start time';
  }
  return '';
}

function AddOverrideDialog({
  today, existing, local, onClose, onSaved,
}: {
  today: string;
  existing: Override[];
  local: LocalData | null;
  onClose: () => void;
  onSaved: () => Promise<void>;
}) {
  const [date, setDate] = useState('');
  const [mode, setMode] = useState<'off' | 'custom'>('off');
  const [start, setStart] = useState('09:00');
  const [end, setEnd] = useState('12:00');
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);

  async function save() {
    const v = validateOverride({ date, mode, start, end }, today);
    if (v) {
      setError(v);
      return;
    }
    setSaving(true);
    setError('');
    try {
      const sameDate = existing.filter((o) => o.date === date);
      // A day off replaces the date's overrides (a day off next to custom hours would give the
      // hours); custom hours replace a day off and add to other windows of the date.
      await removeOverrides(local, mode === 'off' ? sameDate : sameDate.filter((o) => !o.start_time_local));
      const body = { date, start_time_local: mode === 'custom' ? start : null, end_time_local: mode === 'custom' ? end : null };
      if (local) await putExceptionLocal(local.db, local.deviceId, body);
      else await api.createException(body);
      await onSaved();
    } catch {
      setError('Failed to save the date override. Please try again.');
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="Add date override"
      description="On this date your weekly hours are replaced by what you choose here."
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={() => void save()} disabled={saving}>
            {saving ? 'Saving...' : 'Save'}
          </button>
        </>
      }
    >
      <form
        className="override-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        onChange={() => setError('')}
      >
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="field">
          <label htmlFor="override-date">Date</label>
          <input id="override-date" type="date" min={today} value={date} onChange={(e) => setDate(e.target.value)} required autoFocus />
        </div>
        <fieldset className="choice-group">
          <legend>Availability on this date</legend>
          <label className="choice">
            <input type="radio" name="override-mode" value="off" checked={mode === 'off'} onChange={() => setMode('off')} />
            Unavailable all day
          </label>
          <label className="choice">
            <input type="radio" name="override-mode" value="custom" checked={mode === 'custom'} onChange={() => setMode('custom')} />
            Custom hours
          </label>
        </fieldset>
        {mode === 'custom' && (
          <div className="override-times">
            <div className="field">
              <label htmlFor="override-start">Start</label>
              <TimeInput id="override-start" value={start} onChange={setStart} />
            </div>
            <div className="field">
              <label htmlFor="override-end">End</label>
              <TimeInput id="override-end" value={end} onChange={setEnd} />
            </div>
          </div>
        )}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      </form>
    </Dialog>
  );
}
