/**
 * Field errors of the weekly slot editors (issue 23) from the shared list schema, the server's
 * 422 `errors` (`rules.<i>.<field>`) or the device database's ZodError (`<i>.<field>`): one error
 * per slot, keyed by the slot's `key`, on the field the rule names (a repeated or overlapping slot
 * marks both its times).
 */
import { availabilityRulesListSchema, DUPLICATE_SLOT_MESSAGE, OVERLAPPING_SLOT_MESSAGE } from '@avail/shared';
import type { Slot, SlotError, SlotField } from './slot-editor.tsx';

const FIELDS: readonly SlotField[] = ['weekday', 'start_time_local', 'end_time_local'];

/** Issues as `{ path, message }` (zod issues, or a 422's `errors` split on '.') → errors by slot key. */
export function slotErrorsFrom(slots: readonly Slot[], issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): Record<number, SlotError> {
  const out: Record<number, SlotError> = {};
  for (const issue of issues) {
    const path = issue.path[0] === 'rules' ? issue.path.slice(1) : issue.path;
    const slot = slots[Number(path[0])];
    const field = path[1] as SlotField;
    if (!slot || !FIELDS.includes(field) || out[slot.key]) continue;
    const conflict = issue.message === DUPLICATE_SLOT_MESSAGE || issue.message === OVERLAPPING_SLOT_MESSAGE;
    out[slot.key] = { fields: conflict ? ['start_time_local', 'end_time_local'] : [field], message: issue.message };
  }
  return out;
}

/** A 422's `errors` map (`{ 'rules.1.start_time_local': message }`) as issues. */
export function issuesOfFieldErrors(errors: Record<string, string> | undefined): { path: string[]; message: string }[] {
  return Object.entries(errors ?? {}).map(([k, message]) => ({ path: k.split('.'), message }));
}

/**
 * Checks the slots as the server and the device database will: `{ list }` for a list-level
 * message (no slot), `{ slots }` for field errors, or null when the schedule can be saved.
 */
export function checkSlots(slots: readonly Slot[]): { list?: string; slots?: Record<number, SlotError> } | null {
  const rules = slots.map(({ weekday, start_time_local, end_time_local }) => ({ weekday, start_time_local, end_time_local }));
  const r = availabilityRulesListSchema.safeParse({ rules });
  if (r.success) return null;
  const bySlot = slotErrorsFrom(slots, r.error.issues);
  if (Object.keys(bySlot).length) return { slots: bySlot };
  return { list: r.error.issues[0]?.message ?? 'Please add at least one availability slot' };
}

/** Moves focus to the first invalid field of the first slot with an error. */
export function focusFirstSlotError(slots: readonly Slot[], errors: Record<number, SlotError>): void {
  const first = slots.find((s) => errors[s.key]);
  if (!first) return;
  const field = errors[first.key].fields[0];
  const suffix = field === 'weekday' ? 'day' : field === 'start_time_local' ? 'start' : 'end';
  setTimeout(() => document.getElementById(`slot-${first.key}-${suffix}`)?.focus(), 0);
}
