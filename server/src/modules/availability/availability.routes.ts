/** /api/me/availability-rules and /api/me/exceptions — the owner's weekly schedule and date overrides. */
import { Router } from 'express';
import {
  availabilityRuleSchema,
  availabilityRulesListSchema,
  exceptionSchema,
} from '@avail/shared/schemas/availability.schema.ts';
import { authenticate, currentUser, requireVerified } from '../../http/authenticate.ts';
import type { Deps } from '../../http/deps.ts';
import { parse, validate } from '../../http/validate.ts';
import * as availability from './availability.service.ts';

/** Router for /api/me/availability-rules and /api/me/exceptions (product spec §7; availability-semantics.md "Inputs"). */
export function availabilityRouter(deps: Deps) {
  const r = Router();
  const guard = [authenticate(deps), requireVerified];

  /**
   * GET /api/me/availability-rules — 200 `{ rules: [{ id, weekday, start_time_local, end_time_local }] }`,
   * sorted by weekday (0 = Monday … 6 = Sunday) then start; times `HH:MM` in the owner's zone. 401; 403.
   */
  r.get('/me/availability-rules', ...guard, async (req, res) => {
    res.json({ rules: await availability.listRules(deps, currentUser(req).id) });
  });

  /**
   * POST /api/me/availability-rules — two forms:
   * - `{ weekday, start_time_local, end_time_local }` adds one rule → 201 `{ rule }`;
   * - `{ rules: [ … ] }` (at least one) replaces the whole weekly schedule in one transaction → 200 `{ rules }`.
   * 422 with the spec's messages ('Please add at least one availability slot', 'Please fill in all time fields',
   * 'Time format must be HH:MM (24-hour format)', 'End time must be after start time'); errors keyed `rules.0.end_time_local`.
   * A slot that repeats or overlaps an earlier slot of its day (the list's earlier slots, or the saved schedule for the
   * single form) is 422 on the later slot's start field, `rules.<i>.start_time_local` (issue 23; back-to-back is fine). 401; 403.
   */
  r.post('/me/availability-rules', ...guard, async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const userId = currentUser(req).id;
    if ('rules' in body) {
      const { rules } = parse(availabilityRulesListSchema, body);
      res.json({ rules: await availability.replaceRules(deps, userId, rules) });
      return;
    }
    const rule = parse(availabilityRuleSchema, body);
    res.status(201).json({ rule: await availability.addRule(deps, userId, rule) });
  });

  /** DELETE /api/me/availability-rules/:id — 200 `{ success: true }` (soft delete); 404 if not one of the caller's live rules. */
  r.delete('/me/availability-rules/:id', ...guard, async (req, res) => {
    await availability.deleteRule(deps, currentUser(req).id, String(req.params.id));
    res.json({ success: true });
  });

  /** GET /api/me/exceptions — 200 `{ exceptions: [{ id, date, start_time_local|null, end_time_local|null }] }` sorted by date. */
  r.get('/me/exceptions', ...guard, async (req, res) => {
    res.json({ exceptions: await availability.listExceptions(deps, currentUser(req).id) });
  });

  /**
   * POST /api/me/exceptions — `{ date: 'YYYY-MM-DD', start_time_local|null, end_time_local|null }`; both null = day off.
   * 201 `{ exception }`. 422 for a bad date, exactly one null time, or end ≤ start. 401; 403.
   */
  r.post('/me/exceptions', ...guard, validate(exceptionSchema), async (req, res) => {
    res.status(201).json({ exception: await availability.addException(deps, currentUser(req).id, req.body) });
  });

  /** DELETE /api/me/exceptions/:id — 200 `{ success: true }` (soft delete); 404 if not one of the caller's live exceptions. */
  r.delete('/me/exceptions/:id', ...guard, async (req, res) => {
    await availability.deleteException(deps, currentUser(req).id, String(req.params.id));
    res.json({ success: true });
  });

  return r;
}
