/**
 * Manual busy blocks (issue 10): `{ start_ms, end_ms, note? }`, a half-open interval of UTC epoch
 * milliseconds the owner marks busy by hand. It counts as busy time on the public page exactly like
 * a calendar's busy interval; the note is owner-only and never shown to visitors.
 *
 * `busyBlockSchema` is clock-free (order, length, note). Whether a block is already over depends on
 * the clock, so it is a separate step: `busyBlockSchemaAt(now)` (the same checks plus "not over"),
 * or `isBlockOver(block, now)`. New blocks (REST, the device's local write) use `busyBlockSchemaAt`;
 * the replication push uses only the clock-free checks (a device may deliver a block late).
 */
import './zod-setup.ts';
import { z } from 'zod';
import { BUSY_BLOCK_MAX_MS, BUSY_BLOCK_NOTE_MAX_LENGTH } from '../constants.ts';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from './storable-text.ts';

const BLOCK_END_BEFORE_START_MESSAGE = 'The end must be after the start.';
const BLOCK_TOO_LONG_MESSAGE = 'A busy block can last at most 14 days.';
export const BLOCK_NOTE_TOO_LONG_MESSAGE = `The note can be at most ${BUSY_BLOCK_NOTE_MAX_LENGTH} characters.`;
const BLOCK_OVER_MESSAGE = 'This time is already over.';

/** Largest epoch-ms value accepted (as rx-schemas.ts): year 33658. */
const MAX_MS = 1e15;

function epochMs(message: string) {
  return z.number({ error: message }).int(message).min(0, message).max(MAX_MS, message);
}

/** The fields of a block; `note` is trimmed, and a missing or blank note becomes null. */
const blockFields = z.object({
  start_ms: epochMs('The start must be a time in UTC epoch milliseconds.'),
  end_ms: epochMs('The end must be a time in UTC epoch milliseconds.'),
  note: z
    .string({ error: 'The note must be text.' })
    .trim()
    .max(BUSY_BLOCK_NOTE_MAX_LENGTH, BLOCK_NOTE_TOO_LONG_MESSAGE)
    .refine(isStorableText, UNSTORABLE_TEXT_MESSAGE)
    .nullish()
    .transform((note) => (note ? note : null)),
});

type BlockTimes = { start_ms: number; end_ms: number };

/** The first problem of a block's times (end ≤ start, longer than 14 days, over at `now` when given), or null. */
export function blockTimesProblem(block: BlockTimes, now?: number): string | null {
  if (block.end_ms <= block.start_ms) return BLOCK_END_BEFORE_START_MESSAGE;
  if (block.end_ms - block.start_ms > BUSY_BLOCK_MAX_MS) return BLOCK_TOO_LONG_MESSAGE;
  if (now !== undefined && isBlockOver(block, now)) return BLOCK_OVER_MESSAGE;
  return null;
}

/** True when the block has ended at `now` (end ≤ now, UTC epoch ms): it can no longer be created. */
export function isBlockOver(block: { end_ms: number }, now: number): boolean {
  return block.end_ms <= now;
}

function withTimeChecks(now?: number) {
  return blockFields.superRefine((b, ctx) => {
    const problem = blockTimesProblem(b, now);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['end_ms'] });
  });
}

/**
 * POST /api/me/blocks body without the clock: `{ start_ms, end_ms, note? }` (UTC epoch ms, integers).
 * Messages: 'The end must be after the start.', 'A busy block can last at most 14 days.' (exactly
 * 14 days is allowed), 'The note can be at most 200 characters.'; time issues are keyed `end_ms`.
 * Output: `{ start_ms, end_ms, note: string | null }` (note trimmed; blank → null).
 */
export const busyBlockSchema = withTimeChecks();

/**
 * `busyBlockSchema` plus "not over at `now`" (end ≤ now → 'This time is already over.', keyed
 * `end_ms`). A block that started before `now` but ends after it is fine. `now`: UTC epoch ms.
 */
export function busyBlockSchemaAt(now: number) {
  return withTimeChecks(now);
}
