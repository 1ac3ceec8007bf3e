/** Weekly rules and date exceptions of the signed-in owner. */
import type { AvailabilityRuleInput, ExceptionInput } from '@avail/shared/schemas/availability.schema.ts';
import type { AvailabilityExceptionRow, AvailabilityRuleRow } from '../../db/schema.ts';
import type { Deps } from '../../http/deps.ts';
import { notFound } from '../../http/errors.ts';
import * as repo from './availability.repo.ts';

/** Rule JSON: `{ id, weekday, start_time_local, end_time_local }` (weekday 0 = Monday). */
export function presentRule(r: AvailabilityRuleRow) {
  return { id: r.id, weekday: r.weekday, start_time_local: r.start_time_local, end_time_local: r.end_time_local };
}

/** Exception JSON: `{ id, date, start_time_local | null, end_time_local | null }`. */
export function presentException(e: AvailabilityExceptionRow) {
  return { id: e.id, date: e.date, start_time_local: e.start_time_local, end_time_local: e.end_time_local };
}

/** The owner's rules as Rule JSON, sorted by weekday then start. */
export async function listRules(deps: Deps, userId: string) {
  return (await repo.listRules(deps.db, userId)).map(presentRule);
}

/** Adds one validated rule; returns its Rule JSON. */
export async function addRule(deps: Deps, userId: string, rule: AvailabilityRuleInput) {
  const [row] = await repo.insertRules(deps.db, userId, [rule], deps.now());
  return presentRule(row);
}

/** Replaces the whole weekly schedule in one transaction (old rules soft-deleted). */
export async function replaceRules(deps: Deps, userId: string, rules: AvailabilityRuleInput[]) {
  const now = deps.now();
  await deps.db.transaction().execute(async (trx) => {
    await repo.softDeleteAllRules(trx, userId, now);
    await repo.insertRules(trx, userId, rules, now);
  });
  return listRules(deps, userId);
}

/** Soft-deletes one of the owner's rules. @throws 404 'Availability rule not found'. */
export async function deleteRule(deps: Deps, userId: string, id: string) {
  if (!(await repo.softDeleteRule(deps.db, userId, id, deps.now()))) throw notFound('Availability rule not found');
}

/** The owner's exceptions as Exception JSON, sorted by date. */
export async function listExceptions(deps: Deps, userId: string) {
  return (await repo.listExceptions(deps.db, userId)).map(presentException);
}

/** Adds one validated exception; returns its Exception JSON. */
export async function addException(deps: Deps, userId: string, input: ExceptionInput) {
  return presentException(await repo.insertException(deps.db, userId, input, deps.now()));
}

/** Soft-deletes one of the owner's exceptions. @throws 404 'Exception not found'. */
export async function deleteException(deps: Deps, userId: string, id: string) {
  if (!(await repo.softDeleteException(deps.db, userId, id, deps.now()))) throw notFound('Exception not found');
}
