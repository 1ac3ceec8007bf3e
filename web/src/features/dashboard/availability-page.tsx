/**
 * Availability (spec §2 Availability, §5 edit modal validation, §8 availability messages). The
 * weekly rules are read from the device database and saved to it first (issue 3: they sync when
 * the server is reachable; unsynced rules show as pending); REST until the database has synced.
 */
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { api, ApiError } from '@avail/shared/api/api-client.ts';
import { DEFAULT_RULE } from '@avail/shared';
import { nextSlotDefault, weeklyUnionMinutes } from '@avail/shared/domain/weekly-hours.ts';
import { replaceRulesLocal } from '@avail/shared/rx/local-writes.ts';
import { invalidate } from '../../data/data-store.ts';
import { useLocalData, useLocalRules, usePendingKeys, type RuleView } from '../../data/local-data.tsx';
import type { LocalData } from '../../data/local-db.ts';
import { dataAreas, useSession } from '../../data/session.tsx';
import { SlotEditor, WEEKDAYS, type Slot, type SlotError } from '../../components/slot-editor.tsx';
import { checkSlots, focusFirstSlotError, issuesOfFieldErrors, slotErrorsFrom } from '../../components/slot-errors.ts';
import { useAlert } from '../../components/ui/alert.tsx';
import { ConfirmDialog, Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { browserTimeZone, to12h } from '../../lib/time.ts';
import { DateOverridesCard } from './date-overrides-card.tsx';
import { useStore } from './use-store.ts';

/** A slot of the editor; `id` is the device rule it edits (kept so unchanged rules keep their revision). */
type EditSlot = Slot & { id?: string };
let seq = 0;
const mk = (r: Omit<Slot, 'key'> & { id?: string | number } = DEFAULT_RULE): EditSlot => ({
  key: ++seq,
  id: typeof r.id === 'string' ? r.id : undefined,
  weekday: r.weekday,
  start_time_local: r.start_time_local,
  end_time_local: r.end_time_local,
});
const byDayAndStart = (a: RuleView, b: RuleView) => a.weekday - b.weekday || a.start_time_local.localeCompare(b.start_time_local);

export default function AvailabilityPage() {
  const { user } = useSession();
  const local = useLocalData();
  const fromDevice = Boolean(local.data && local.synced);
  const localRules = useLocalRules(local.data, local.synced);
  const pendingKeys = usePendingKeys(local.data);
  const rest = useStore('availability', dataAreas.availability, !fromDevice);
  const useDevice = fromDevice && localRules !== undefined;
  const rules = {
    data: useDevice ? { rules: localRules } : rest.data,
    loading: useDevice ? false : rest.loading || (fromDevice && !rest.data),
    error: useDevice ? null : rest.error,
  };
  const list: RuleView[] = [...(rules.data?.rules ?? [])].sort(byDayAndStart);
  const pendingRules = useDevice ? pendingKeys.filter((k) => k.startsWith('availability_rules/')).length : 0;
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  /** Closes the modal and gives focus back to 'Edit Schedule' (the modal is unmounted, not hidden). */
  const closeEditor = () => {
    setEditing(false);
    setTimeout(() => editButton.current?.focus(), 0);
  };
  const alert = useAlert();
  const days = new Set(list.map((r) => r.weekday)).size;
  // Issue 23: each day's slots count once where they overlap (the union), never summed.
  const totalMin = weeklyUnionMinutes(list);

  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Availability</h1>
          <p className="muted">Your weekly hours. Busy events from your calendars are subtracted automatically.</p>
        </div>
        <button ref={editButton} type="button" className="btn btn-primary" onClick={() => setEditing(true)} disabled={rules.loading && !rules.data}>
          Edit Schedule
        </button>
      </div>
      {alert.node}
      {rules.loading && !rules.data ? (
        <div className="card center-block">
          <Spinner size={24} label="Loading availability" />
        </div>
      ) : rules.error && !rules.data ? (
        <div className="card">Failed to load your availability.</div>
      ) : list.length === 0 ? (
        <section className="card empty-state">
          <h2>No availability set</h2>
          <p className="muted">You haven&apos;t set any weekly hours yet. Finish onboarding to set your schedule.</p>
          <Link to="/app/onboarding" className="btn btn-primary">
            Go to onboarding
          </Link>
        </section>
      ) : (
        <>
          <p className="summary" data-testid="availability-summary">
            {list.length} {list.length === 1 ? 'slot' : 'slots'} across {days} {days === 1 ? 'day' : 'days'} · {Math.round((totalMin / 60) * 10) / 10} hours per week
            {pendingRules > 0 && (
              <span className="badge badge-pending" data-testid="pending-badge" title="Saved on this device; it syncs when the server is reachable">
                Changes pending sync
              </span>
            )}
          </p>
          <div className="card day-list">
            {WEEKDAYS.map((d, i) => {
              const slots = list.filter((r) => r.weekday === i);
              return (
                <div key={d} className="day-row">
                  <span className="day-name">{d}</span>
                  <span className="day-slots">
                    {slots.length === 0 ? (
                      <span className="muted">Unavailable</span>
                    ) : (
                      slots.map((r, n) => (
                        <span key={n} className={`slot-pill${r.pending ? ' pending' : ''}`} title={r.pending ? 'Pending sync' : undefined}>
                          {to12h(r.start_time_local)} - {to12h(r.end_time_local)}
                        </span>
                      ))
                    )}
                  </span>
                </div>
              );
            })}
          </div>
        </>
      )}
      <DateOverridesCard timezone={user?.timezone || browserTimeZone()} />
      {editing && (
        <EditScheduleModal
          initial={list.map((r) => mk(r))}
          local={fromDevice ? local.data : null}
          onClose={closeEditor}
          onSaved={() => {
            closeEditor();
            invalidate('dashboard');
            if (fromDevice) invalidate('availability');
            else void rest.reload(true);
            alert.show('success', 'Availability updated successfully!');
          }}
        />
      )}
    </div>
  );
}

/** A ZodError from the device database's write (duck-typed: web does not import zod itself). */
const isZodLike = (e: unknown): e is { issues: { path: PropertyKey[]; message: string }[] } =>
  typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'ZodError' && Array.isArray((e as { issues?: unknown }).issues);

function EditScheduleModal({ initial, local, onClose, onSaved }: { initial: EditSlot[]; local: LocalData | null; onClose: () => void; onSaved: () => void }) {
  // The schedule as it was when the modal opened: the parent may re-derive `initial` (with new
  // keys) when the device database finishes a pull, which must not read as "every slot removed".
  const [original] = useState(initial);
  const [slots, setSlots] = useState<EditSlot[]>(original.length ? original : [mk()]);
  const [error, setError] = useState('');
  const [slotErrors, setSlotErrors] = useState<Record<number, SlotError>>({});
  const [saving, setSaving] = useState(false);
  const [confirm, setConfirm] = useState<null | 'some' | 'all'>(null);

  /** Shows field errors beside their slots (issue 23); false when there were some. */
  function showSlotErrors(errors: Record<number, SlotError>): boolean {
    if (!Object.keys(errors).length) return true;
    setSlotErrors(errors);
    focusFirstSlotError(slots, errors);
    return false;
  }

  /** The shared list schema (the server's and the device database's rules): true when the slots can be saved. */
  function validate(): boolean {
    const problem = checkSlots(slots);
    if (!problem) return true;
    if (problem.slots) return showSlotErrors(problem.slots);
    setError(problem.list ?? '');
    return false;
  }

  async function save() {
    setSaving(true);
    setError('');
    try {
      if (local) {
        // Local first: the device database changes at once and the replication pushes it.
        await replaceRulesLocal(local.db, local.deviceId, slots.map(({ id, weekday, start_time_local, end_time_local }) => ({ id, weekday, start_time_local, end_time_local })));
      } else {
        await api.replaceAvailabilityRules(slots.map(({ weekday, start_time_local, end_time_local }) => ({ weekday, start_time_local, end_time_local })));
      }
      onSaved();
    } catch (e) {
      // The device database and the server refuse with the same field errors as the form.
      const fieldErrors =
        isZodLike(e) ? slotErrorsFrom(slots, e.issues) : e instanceof ApiError ? slotErrorsFrom(slots, issuesOfFieldErrors(e.fieldErrors)) : {};
      if (showSlotErrors(fieldErrors)) setError('Failed to update availability. Please try again.');
    } finally {
      setSaving(false);
    }
  }

  function onSave() {
    setError('');
    setSlotErrors({});
    if (!validate()) return;
    const removed = original.filter((i) => !slots.some((s) => s.key === i.key)).length;
    // The last slot cannot be removed, so "all removed" means every slot the schedule had
    // is gone and only newly added ones remain: a different prompt.
    if (removed > 0) setConfirm(removed === original.length ? 'all' : 'some');
    else void save();
  }

  return (
    <>
      <Dialog
        open
        wide
        onOpenChange={(o) => !o && onClose()}
        title="Edit Schedule"
        description="Times are in your profile timezone, 24-hour format."
        footer={
          <>
            <button type="button" className="btn btn-secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="btn btn-primary" onClick={onSave} disabled={saving}>
              {saving ? 'Saving...' : 'Save Schedule'}
            </button>
          </>
        }
      >
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <SlotEditor
          slots={slots}
          errors={slotErrors}
          onChange={(s) => {
            setSlots(s as EditSlot[]);
            setError('');
            setSlotErrors({});
          }}
          makeSlot={() => mk(nextSlotDefault(slots))}
          canRemoveLast={false}
        />
      </Dialog>
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(o) => !o && setConfirm(null)}
        title={confirm === 'all' ? 'Remove all current time slots?' : 'Remove time slots?'}
        message={
          confirm === 'all'
            ? 'You removed all of your current time slots. Save the schedule with only the new ones?'
            : 'Some time slots were removed. Save the schedule without them?'
        }
        confirmLabel="Save"
        onConfirm={() => void save()}
      />
    </>
  );
}
