/**
 * Weekly rules and date exceptions of the signed-in owner. One write path for REST and the
 * replication push: every change is a whole document state (`RuleWrite`/`ExceptionWrite`, the
 * wire shape of shared/src/rx/rx-schemas.ts with `_deleted`) applied by applyRuleWrites /
 * applyExceptionWrites inside a replicatedWrite transaction, so both stay consistent and every
 * write takes the user's replication stamp. REST writes are authored by device 'server' at now.
 */
import { z } from 'zod';
import type { WithDeleted } from 'rxdb';
import {
  DATE_PATTERN,
  TIME_PATTERN,
  availabilityRuleSchema,
  exceptionSchema,
  weeklySlotConflicts,
  type AvailabilityRuleInput,
  type ExceptionInput,
} from '@avail/shared/schemas/availability.schema.ts';
import type { ExceptionDoc, RuleDoc } from '@avail/shared/rx/rx-schemas.ts';
import type { Db } from '../../db/kysely.ts';
import type { AvailabilityExceptionRow, AvailabilityRuleRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { conflict, notFound, validationFailed } from '../../http/errors.ts';
import { zodFieldErrors } from '../../http/validate.ts';
import { replicatedWrite, type Stamper } from '../../store/repl-clock.repo.ts';
import * as repo from '../../store/availability.repo.ts';

/** Device id of edits made through the REST API. */
export const SERVER_DEVICE_ID = 'server';

/** A rule document state to store (`updated_at` is ignored: the server stamps it). */
export type RuleWrite = Omit<WithDeleted<RuleDoc>, 'updated_at'> & { updated_at?: number };
/** An exception document state to store (`updated_at` is ignored: the server stamps it). */
export type ExceptionWrite = Omit<WithDeleted<ExceptionDoc>, 'updated_at'> & { updated_at?: number };

/** Rule JSON: `{ id, weekday, start_time_local, end_time_local }` (weekday 0 = Monday). */
function presentRule(r: AvailabilityRuleRow) {
  return { id: r.id, weekday: r.weekday, start_time_local: r.start_time_local, end_time_local: r.end_time_local };
}

/** Exception JSON: `{ id, date, start_time_local | null, end_time_local | null }`. */
function presentException(e: AvailabilityExceptionRow) {
  return { id: e.id, date: e.date, start_time_local: e.start_time_local, end_time_local: e.end_time_local };
}

// ── Document validation (push and REST alike) ──

const MAX_MS = 1e15;
/** Replication fields every writable document carries (rx-schemas.ts); types strict, no coercion. */
const docMetaSchema = z.object({
  id: z.string({ error: 'id is required' }).min(1, 'id is required').max(64, 'id is too long'),
  edited_at: z.number({ error: 'edited_at must be epoch ms' }).int('edited_at must be epoch ms').min(0).max(MAX_MS),
  device_id: z.string({ error: 'device_id is required' }).min(1, 'device_id is required').max(64, 'device_id is too long'),
  updated_at: z.number().optional(),
  _deleted: z.boolean({ error: '_deleted must be a boolean' }).optional(),
});
const strictTime = z.string().regex(TIME_PATTERN, 'Time format must be HH:MM (24-hour format)');
const strictRuleFields = z.object({ weekday: z.number().int(), start_time_local: strictTime, end_time_local: strictTime });
const strictExceptionFields = z.object({
  date: z.string().regex(DATE_PATTERN, 'Date must be YYYY-MM-DD'),
  start_time_local: strictTime.nullable(),
  end_time_local: strictTime.nullable(),
});

function check(schemas: z.ZodType[], value: unknown, index: number, errors: Record<string, string>): boolean {
  for (const schema of schemas) {
    const r = schema.safeParse(value);
    if (!r.success) {
      for (const [k, msg] of Object.entries(zodFieldErrors(r.error))) {
        const key = `${index}.${k}`;
        if (!(key in errors)) errors[key] = msg;
      }
      return false;
    }
  }
  return true;
}

/**
 * Validates every document of a writable collection against the replication fields
 * (`id`, `edited_at`, `device_id`, `_deleted`) and `schemas`, collecting errors keyed
 * `<index>.<field>`; keeps exactly the stored fields (`fields(d)` plus the replication fields).
 * Shared by the writable kinds (rules, exceptions, busy blocks).
 * @throws 422 validation_failed when ANY document is invalid.
 */
export function validateDocs<W extends { id: string; edited_at: number; device_id: string; _deleted: boolean }>(
  docs: readonly unknown[],
  schemas: z.ZodType[],
  fields: (d: W) => object,
): W[] {
  const errors: Record<string, string> = {};
  const out: W[] = [];
  docs.forEach((doc, i) => {
    if (!check([docMetaSchema, ...schemas], doc, i, errors)) return;
    const d = doc as W;
    out.push({ id: d.id, ...fields(d), edited_at: d.edited_at, device_id: d.device_id, _deleted: Boolean(d._deleted) } as W);
  });
  if (Object.keys(errors).length) throw validationFailed(errors);
  return out;
}

const ruleFields = (d: RuleWrite) => ({ weekday: d.weekday, start_time_local: d.start_time_local, end_time_local: d.end_time_local });
const exceptionFields = (d: ExceptionWrite) => ({ date: d.date, start_time_local: d.start_time_local, end_time_local: d.end_time_local });

/**
 * Validates rule documents with the shared zod contract (HH:MM, end > start, weekday 0..6) plus
 * the replication fields. Returns them normalised to exactly the stored fields.
 * @throws 422 validation_failed, `errors` keyed `<index>.<field>`, when ANY document is invalid.
 */
export function validateRuleDocs(docs: readonly unknown[]): RuleWrite[] {
  return validateDocs<RuleWrite>(docs, [availabilityRuleSchema, strictRuleFields], ruleFields);
}

/**
 * Validates exception documents (real date YYYY-MM-DD; both times null = day off, else HH:MM with
 * end > start) plus the replication fields. @throws 422 as validateRuleDocs.
 */
export function validateExceptionDocs(docs: readonly unknown[]): ExceptionWrite[] {
  return validateDocs<ExceptionWrite>(docs, [exceptionSchema, strictExceptionFields], exceptionFields);
}

/** 409 for a document id that belongs to another account (never says whose, never overwrites). */
function idTaken() {
  return conflict('This document id is already in use.', 'id_taken');
}

/** The writable document kinds: what each table stores besides the common replicated fields. */
const SCHEDULE_KINDS = {
  availability_rules: {
    validate: (docs: readonly unknown[]) => validateRuleDocs(docs),
    fields: ruleFields,
  },
  availability_exceptions: {
    validate: (docs: readonly unknown[]) => validateExceptionDocs(docs),
    fields: exceptionFields,
  },
} as const;

/**
 * Stores document states of `userId` in `table` (insert or overwrite; `_deleted` → soft delete)
 * with the transaction's stamp. The one write path of REST and push. Call inside replicatedWrite.
 * @returns the stored rows, in input order.
 * @throws 422 (validateRuleDocs / validateExceptionDocs; nothing written); 409 `id_taken` when an
 *   id belongs to another user (never says whose, never overwrites).
 */
async function applyScheduleWrites<T extends repo.ScheduleTable>(
  trx: Db,
  table: T,
  userId: string,
  docs: readonly unknown[],
  stamp: Stamper,
  now: number,
): Promise<(T extends 'availability_rules' ? AvailabilityRuleRow : AvailabilityExceptionRow)[]> {
  type Row = T extends 'availability_rules' ? AvailabilityRuleRow : AvailabilityExceptionRow;
  const kind = SCHEDULE_KINDS[table] as unknown as { validate(d: readonly unknown[]): Array<RuleWrite | ExceptionWrite>; fields(d: RuleWrite | ExceptionWrite): object };
  const valid = kind.validate(docs);
  if (valid.length === 0) return [];
  const existing = new Map((await repo.findScheduleRowsByIds(trx, table, valid.map((d) => d.id))).map((r) => [r.id, r as Row]));
  for (const row of existing.values()) if (row.user_id !== userId) throw idTaken();
  const updatedAt = await stamp(table);
  const out: Row[] = [];
  for (const d of valid) {
    const prior = existing.get(d.id);
    const row = {
      id: d.id,
      user_id: userId,
      ...kind.fields(d),
      created_at: prior?.created_at ?? now,
      updated_at: updatedAt,
      is_deleted: d._deleted ? 1 : 0,
      edited_at: d.edited_at,
      device_id: d.device_id,
    } as Row;
    await repo.writeScheduleRow(trx, table, row, prior !== undefined);
    existing.set(d.id, row);
    out.push(row);
  }
  return out;
}

/** Weekly rules: see applyScheduleWrites. */
export function applyRuleWrites(trx: Db, userId: string, docs: readonly RuleWrite[], stamp: Stamper, now: number): Promise<AvailabilityRuleRow[]> {
  return applyScheduleWrites(trx, 'availability_rules', userId, docs, stamp, now);
}

/** Date exceptions: see applyScheduleWrites. */
export function applyExceptionWrites(trx: Db, userId: string, docs: readonly ExceptionWrite[], stamp: Stamper, now: number): Promise<AvailabilityExceptionRow[]> {
  return applyScheduleWrites(trx, 'availability_exceptions', userId, docs, stamp, now);
}

function newRuleDoc(rule: AvailabilityRuleInput, now: number): RuleWrite {
  return { id: crypto.randomUUID(), ...pickRule(rule), edited_at: now, device_id: SERVER_DEVICE_ID, _deleted: false };
}

function pickRule(r: Pick<AvailabilityRuleInput, 'weekday' | 'start_time_local' | 'end_time_local'>) {
  return { weekday: r.weekday, start_time_local: r.start_time_local, end_time_local: r.end_time_local };
}

function deletedRuleDoc(row: AvailabilityRuleRow, now: number): RuleWrite {
  return { id: row.id, ...pickRule(row), edited_at: now, device_id: SERVER_DEVICE_ID, _deleted: true };
}

// ── REST ──

/** The owner's rules as Rule JSON, sorted by weekday then start. */
export async function listRules(deps: Deps, userId: string) {
  return (await repo.listRules(deps.db, userId)).map(presentRule);
}

/** Adds one validated rule (device 'server', edited now); returns its Rule JSON. */
export async function addRule(deps: Deps, userId: string, rule: AvailabilityRuleInput) {
  const [row] = await replicatedWrite(deps, userId, async (trx, stamp, now) => {
    // Issue 23: a slot that repeats or overlaps one of the day's slots is refused (422, same words as the list form).
    const current = (await repo.listRules(trx, userId)).map(presentRule);
    const clash = weeklySlotConflicts([...current, rule]).find((c) => c.index === current.length);
    if (clash) throw validationFailed({ start_time_local: clash.message });
    return applyRuleWrites(trx, userId, [newRuleDoc(rule, now)], stamp, now);
  });
  return presentRule(row);
}

/** Replaces the whole weekly schedule in one transaction (old rules soft-deleted, one stamp). */
export async function replaceRules(deps: Deps, userId: string, rules: AvailabilityRuleInput[]) {
  await replicatedWrite(deps, userId, async (trx, stamp, now) => {
    const old = await repo.listRules(trx, userId);
    await applyRuleWrites(trx, userId, [...old.map((r) => deletedRuleDoc(r, now)), ...rules.map((r) => newRuleDoc(r, now))], stamp, now);
  });
  return listRules(deps, userId);
}

/** Soft-deletes one of the owner's rules. @throws 404 'Availability rule not found'. */
export async function deleteRule(deps: Deps, userId: string, id: string) {
  await replicatedWrite(deps, userId, async (trx, stamp, now) => {
    const row = await repo.findLiveRule(trx, userId, id);
    if (!row) throw notFound('Availability rule not found');
    await applyRuleWrites(trx, userId, [deletedRuleDoc(row, now)], stamp, now);
  });
}

/** The owner's exceptions as Exception JSON, sorted by date. */
export async function listExceptions(deps: Deps, userId: string) {
  return (await repo.listExceptions(deps.db, userId)).map(presentException);
}

/** Adds one validated exception (device 'server', edited now); returns its Exception JSON. */
export async function addException(deps: Deps, userId: string, input: ExceptionInput) {
  const [row] = await replicatedWrite(deps, userId, (trx, stamp, now) =>
    applyExceptionWrites(
      trx,
      userId,
      [
        {
          id: crypto.randomUUID(),
          date: input.date,
          start_time_local: input.start_time_local,
          end_time_local: input.end_time_local,
          edited_at: now,
          device_id: SERVER_DEVICE_ID,
          _deleted: false,
        },
      ],
      stamp,
      now,
    ),
  );
  return presentException(row);
}

/** Soft-deletes one of the owner's exceptions. @throws 404 'Exception not found'. */
export async function deleteException(deps: Deps, userId: string, id: string) {
  await replicatedWrite(deps, userId, async (trx, stamp, now) => {
    const row = await repo.findLiveException(trx, userId, id);
    if (!row) throw notFound('Exception not found');
    await applyExceptionWrites(
      trx,
      userId,
      [
        {
          id: row.id,
          date: row.date,
          start_time_local: row.start_time_local,
          end_time_local: row.end_time_local,
          edited_at: now,
          device_id: SERVER_DEVICE_ID,
          _deleted: true,
        },
      ],
      stamp,
      now,
    );
  });
}
