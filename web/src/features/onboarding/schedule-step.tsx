/**
 * Onboarding step 3 (spec §2 Onboarding, §4, §8): the weekly schedule. Continue saves the step 2
 * timezone (PUT /me/timezone) and the slots (PUT /me/availability-rules); the shared list schema's
 * errors show beside their slot (issue 23), a list message or a failed save above the editor.
 */
import { useState, type RefObject } from 'react';
import { api, ApiError, serverMessage, type AvailabilityRule } from '@avail/shared/api/api-client.ts';
import { DEFAULT_RULE, timezoneSchema } from '@avail/shared';
import { nextSlotDefault } from '@avail/shared/domain/weekly-hours.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { SlotEditor, type Slot, type SlotError } from '../../components/slot-editor.tsx';
import { checkSlots, focusFirstSlotError, issuesOfFieldErrors, slotErrorsFrom } from '../../components/slot-errors.ts';

let slotSeq = 0;
/** A slot of the editor (a new key each call) for the rule `r` (default: DEFAULT_RULE). */
export const newSlot = (r: Omit<AvailabilityRule, 'id'> = DEFAULT_RULE): Slot => ({ key: ++slotSeq, ...r });

function saveErrorMessage(e: unknown, fallback: string): string {
  if (e instanceof ApiError) {
    const fields = e.fieldErrors;
    if (fields && Object.keys(fields).length) return `Validation error: ${Object.values(fields).join(', ')}`;
  }
  return serverMessage(e) ?? fallback;
}

/**
 * `slots` and `slotErrors` (by slot key) are the page's, so that they outlast going back a step;
 * `onDone` after both saves succeeded.
 */
export function ScheduleStep({
  headingRef,
  timezone,
  slots,
  setSlots,
  slotErrors,
  setSlotErrors,
  onBack,
  onDone,
}: {
  headingRef: RefObject<HTMLHeadingElement | null>;
  timezone: string;
  slots: Slot[];
  setSlots: (slots: Slot[]) => void;
  slotErrors: Record<number, SlotError>;
  setSlotErrors: (errors: Record<number, SlotError>) => void;
  onBack: () => void;
  onDone: () => void;
}) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');

  async function saveSchedule() {
    setError('');
    if (!timezoneSchema.safeParse(timezone).success) {
      setError('Please select a timezone');
      return;
    }
    // The shared list schema: field errors beside their slot (issue 23), a list message on top.
    const problem = checkSlots(slots);
    if (problem?.slots) {
      setSlotErrors(problem.slots);
      focusFirstSlotError(slots, problem.slots);
      return;
    }
    if (problem) {
      setError(problem.list ?? '');
      return;
    }
    setSaving(true);
    try {
      await api.updateTimezone(timezone);
      await api.replaceAvailabilityRules(slots.map(({ weekday, start_time_local, end_time_local }) => ({ weekday, start_time_local, end_time_local })));
      onDone();
    } catch (e) {
      const bySlot = e instanceof ApiError ? slotErrorsFrom(slots, issuesOfFieldErrors(e.fieldErrors)) : {};
      if (Object.keys(bySlot).length) setSlotErrors(bySlot);
      else setError(saveErrorMessage(e, 'Failed to save your availability settings. Please try again.'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="step">
      <h1 ref={headingRef} tabIndex={-1}>
        Set your weekly schedule
      </h1>
      <p className="muted">Add the times you are usually available. Busy events from your calendars are removed automatically.</p>
      {error && <Alert kind="error">{error}</Alert>}
      <SlotEditor
        slots={slots}
        errors={slotErrors}
        onChange={(s) => {
          setSlots(s);
          setSlotErrors({});
        }}
        makeSlot={() => newSlot(nextSlotDefault(slots))}
      />
      <div className="step-actions">
        <button type="button" className="btn btn-secondary" onClick={onBack} disabled={saving}>
          Back
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void saveSchedule()} disabled={saving}>
          {saving ? 'Saving...' : 'Continue'}
        </button>
      </div>
    </section>
  );
}
