/** Weekly slot list: day, start, end, remove; 'Add Another Time Slot'. */
import type { AvailabilityRule } from '@avail/shared/api/api-client.ts';
import { TimeInput } from './time-input.tsx';

export interface Slot extends Omit<AvailabilityRule, 'id'> {
  key: number;
}
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export function SlotEditor({
  slots, onChange, makeSlot, onRemove, canRemoveLast = true,
}: {
  slots: Slot[];
  onChange: (s: Slot[]) => void;
  makeSlot: () => Slot;
  onRemove?: (slot: Slot) => void;
  canRemoveLast?: boolean;
}) {
  const set = (key: number, patch: Partial<Slot>) => onChange(slots.map((s) => (s.key === key ? { ...s, ...patch } : s)));
  return (
    <div className="slot-editor">
      <ul className="slot-list">
        {slots.map((s, i) => (
          <li key={s.key} className="slot-row">
            <div className="field">
              <label htmlFor={`slot-${s.key}-day`}>Day</label>
              <select id={`slot-${s.key}-day`} value={s.weekday} onChange={(e) => set(s.key, { weekday: Number(e.target.value) })}>
                {WEEKDAYS.map((d, n) => (
                  <option key={d} value={n}>
                    {d}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`slot-${s.key}-start`}>Start</label>
              <TimeInput id={`slot-${s.key}-start`} value={s.start_time_local} onChange={(v) => set(s.key, { start_time_local: v })} />
            </div>
            <div className="field">
              <label htmlFor={`slot-${s.key}-end`}>End</label>
              <TimeInput id={`slot-${s.key}-end`} value={s.end_time_local} onChange={(v) => set(s.key, { end_time_local: v })} />
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
          </li>
        ))}
      </ul>
      {slots.length === 0 && <p className="muted">No time slots yet.</p>}
      <button type="button" className="btn btn-secondary btn-dashed" onClick={() => onChange([...slots, makeSlot()])}>
        + Add Another Time Slot
      </button>
    </div>
  );
}
