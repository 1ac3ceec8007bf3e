/**
 * Weekly rules and date exceptions (availability-semantics.md "Inputs"; spec §5 "Availability
 * edit modal"). Times are `HH:MM` 24-hour local times in the owner's zone; `24:00` is not allowed.
 */
import './zod-setup.ts';
import { z } from 'zod';

/** `HH:MM`, 00:00–23:59. */
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
export const DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

const time = z
  .string({ error: 'Please fill in all time fields' })
  .trim()
  .min(1, 'Please fill in all time fields')
  .regex(TIME_PATTERN, 'Time format must be HH:MM (24-hour format)');

const WEEKDAY_MESSAGE = 'Weekday must be 0 (Monday) to 6 (Sunday)';
/** 0 = Monday … 6 = Sunday; a numeric string ("3", from a <select>) is accepted, null/'' are not. */
const weekdaySchema = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.number({ error: WEEKDAY_MESSAGE }).int(WEEKDAY_MESSAGE).min(0, WEEKDAY_MESSAGE).max(6, WEEKDAY_MESSAGE),
);

/** One weekly rule: weekday 0 = Monday … 6 = Sunday. */
export const availabilityRuleSchema = z
  .object({
    weekday: weekdaySchema,
    start_time_local: time,
    end_time_local: time,
  })
  .refine((r) => r.end_time_local > r.start_time_local, {
    message: 'End time must be after start time',
    path: ['end_time_local'],
  });
export type AvailabilityRuleInput = z.infer<typeof availabilityRuleSchema>;

export const DUPLICATE_SLOT_MESSAGE = 'This time slot is already set for this day';
export const OVERLAPPING_SLOT_MESSAGE = 'This time slot overlaps another slot on the same day';

type RuleTimes = { weekday: number; start_time_local: string; end_time_local: string };

/**
 * Issue 23: slots of one day must neither repeat nor overlap (half-open, so 09–12 and 12–17 are
 * fine). The slot at fault is the later one in the list; its index and message are returned so
 * the form, the device database and the server all name the same slot with the same words.
 */
export function weeklySlotConflicts(rules: ReadonlyArray<RuleTimes>): { index: number; message: string }[] {
  const out: { index: number; message: string }[] = [];
  rules.forEach((r, i) => {
    if (!TIME_PATTERN.test(r.start_time_local) || !TIME_PATTERN.test(r.end_time_local) || r.end_time_local <= r.start_time_local) return;
    for (let j = 0; j < i; j++) {
      const o = rules[j];
      if (o.weekday !== r.weekday || !TIME_PATTERN.test(o.start_time_local) || !TIME_PATTERN.test(o.end_time_local) || o.end_time_local <= o.start_time_local) continue;
      if (o.start_time_local === r.start_time_local && o.end_time_local === r.end_time_local) {
        out.push({ index: i, message: DUPLICATE_SLOT_MESSAGE });
        return;
      }
      if (r.start_time_local < o.end_time_local && o.start_time_local < r.end_time_local) {
        out.push({ index: i, message: OVERLAPPING_SLOT_MESSAGE });
        return;
      }
    }
  });
  return out;
}

/**
 * A weekly schedule as written on a device (local-writes.ts): every rule valid and no repeated or
 * overlapping slot on one day (issue #23), reported at `<i>.start_time_local`. May be empty.
 */
export const weeklyRulesSchema = z.array(availabilityRuleSchema).superRefine((rules, ctx) => {
  for (const c of weeklySlotConflicts(rules)) ctx.addIssue({ code: 'custom', message: c.message, path: [c.index, 'start_time_local'] });
});

/** The list form of POST /api/me/availability-rules: replaces the whole weekly schedule. */
export const availabilityRulesListSchema = z
  .object({
    rules: z.array(availabilityRuleSchema, { error: 'Please add at least one availability slot' })
      .min(1, 'Please add at least one availability slot')
      .max(200, 'Too many availability slots'),
  })
  .superRefine((v, ctx) => {
    // Reported on the start field of the later slot: `rules.<i>.start_time_local`.
    for (const c of weeklySlotConflicts(v.rules)) {
      ctx.addIssue({ code: 'custom', message: c.message, path: ['rules', c.index, 'start_time_local'] });
    }
  });

/** True when `date` is a real calendar date `YYYY-MM-DD`. */
function isRealDate(date: string): boolean {
  if (!DATE_PATTERN.test(date)) return false;
  const [y, m, d] = date.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/**
 * POST /api/me/exceptions — `{ date, start_time_local|null, end_time_local|null }`.
 * Both times null: unavailable all day. Exactly one null is invalid (semantics detail 8 → 422).
 */
export const exceptionSchema = z
  .object({
    date: z.string({ error: 'Date is required' }).trim().refine(isRealDate, 'Date must be YYYY-MM-DD'),
    start_time_local: time.nullable().default(null),
    end_time_local: time.nullable().default(null),
  })
  .superRefine((e, ctx) => {
    if ((e.start_time_local === null) !== (e.end_time_local === null)) {
      ctx.addIssue({ code: 'custom', message: 'Set both start and end time, or neither for a day off', path: ['end_time_local'] });
    } else if (e.start_time_local !== null && e.end_time_local !== null && e.end_time_local <= e.start_time_local) {
      ctx.addIssue({ code: 'custom', message: 'End time must be after start time', path: ['end_time_local'] });
    }
  });
export type ExceptionInput = z.infer<typeof exceptionSchema>;
