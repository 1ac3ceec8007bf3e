/** Weekly slot list: day, start, end, remove; 'Add Another Time Slot'. */
import type { AvailabilityRule } from '@avail/shared/api/api-client.ts';
import { TimeInput } from './time-input.tsx';
import './slot-editor.css';

export interface Slot extends Omit<AvailabilityRule, 'id'> {
  key: number;
}
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export type SlotField = 'weekday' | 'start_time_local' | 'end_time_local';
/** A field error of one slot (issue 23): the fields marked invalid and the message shown beside them. */
export interface SlotError {
  fields: SlotField[];
  message: string;
}

export function SlotEditor({
  slots, onChange, makeSlot, onRemove, canRemoveLast = true, errors,
}: {
  slots: Slot[];
  onChange: (s: Slot[]) => void;
  makeSlot: () => Slot;
  onRemove?: (slot: Slot) => void;
  canRemoveLast?: boolean;
  /** Field errors by slot `key`. */
  errors?: Readonly<Record<number, SlotError>>;
}) {
  const set = (key: number, patch: Partial<Slot>) => onChange(slots.map((s) => (s.key === key ? { ...s, ...patch } : s)));
  return (
    <div className="slot-editor">
      <ul className="slot-list">
        {slots.map((s, i) => {
          const err = errors?.[s.key];
          const errId = `slot-${s.key}-error`;
          const invalid = (f: SlotField) => (err?.fields.includes(f) ? { 'aria-invalid': true, 'aria-describedby': errId } : {});
          return (
          <li key={s.key} className={`slot-row${err ? ' has-error' : ''}`}>
            <div className="field slot-day">
              <label htmlFor={`slot-${s.key}-day`}>Day</label>
              <select id={`slot-${s.key}-day`} value={s.weekday} onChange={(e) => set(s.key, { weekday: Number(e.target.value) })} {...invalid('weekday')}>
                {WEEKDAYS.map((d, n) => (
                  <option key={d} value={n}>
                    {d}
                  </option>
                ))}
              </select>
            </div>
            <div className="field slot-start">
              <label htmlFor={`slot-${s.key}-start`}>Start</label>
              <TimeInput id={`slot-${s.key}-start`} value={s.start_time_local} onChange={(v) => set(s.key, { start_time_local: v })} {...invalid('start_time_local')} />
            </div>
            <div className="field slot-end">
              <label htmlFor={`slot-${s.key}-end`}>End</label>
              <TimeInput id={`slot-${s.key}-end`} value={s.end_time_local} onChange={(v) => set(s.key, { end_time_local: v })} {...invalid('end_time_local')} />
            </div>
            <button
              type="button"
              className="icon-button slot-remove"
              aria-label={`Remove slot ${i + 1}`}
              disabled={!canRemoveLast && slots.length <= 1}
              onClick={() => (onRemove ? onRemove(s) : onChange(slots.filter((x) => x.key !== s.key)))}
            >
              ✕
            </button>
            {err && (
              <p id={errId} className="field-error slot-error" role="alert" data-testid="slot-error">
                {err.message}
              </p>
            )}
          </li>
          );
        })}
      </ul>
      {slots.length === 0 && <p className="muted">No time slots yet.</p>}
      <button type="button" className="btn btn-secondary btn-dashed" onClick={() => onChange([...slots, makeSlot()])}>
        + Add Another Time Slot
      </button>
    </div>
  );
}
