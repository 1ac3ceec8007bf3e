/**
 * The owner's availability calls (product spec §7): weekly rules, date exceptions and the manual
 * busy blocks (issue 10; `[start_ms, end_ms)` UTC epoch ms). Part of `api` (`api-client.ts`).
 */
import { get, post, del } from './api-transport.ts';
import type { AvailabilityException, AvailabilityRule, BusyBlock } from './api-shapes.ts';

export const availabilityCalls = {
  availabilityRules: () => get<{ rules: AvailabilityRule[] }>('/me/availability-rules'),
  replaceAvailabilityRules: (rules: Omit<AvailabilityRule, 'id'>[]) =>
    post<{ rules?: AvailabilityRule[] }>('/me/availability-rules', { rules }),
  exceptions: () => get<{ exceptions: AvailabilityException[] }>('/me/exceptions'),
  createException: (body: { date: string; start_time_local: string | null; end_time_local: string | null }) =>
    post<{ exception: AvailabilityException }>('/me/exceptions', body),
  deleteException: (id: string | number) => del<unknown>(`/me/exceptions/${encodeURIComponent(String(id))}`),
  /** GET /me/blocks?from=&to=: the owner's live manual busy blocks overlapping [from, to) (UTC epoch ms, each optional), by start; 400 `invalid_range`. */
  blocks: (from?: number, to?: number) => get<{ blocks: BusyBlock[] }>('/me/blocks', { query: { from, to } }),
  /** POST /me/blocks: 201 the new block; 422 `validation_failed` (end ≤ start, over 14 days, already over, note > 200). */
  addBlock: (body: { start_ms: number; end_ms: number; note?: string | null }) => post<{ block: BusyBlock }>('/me/blocks', body),
  /** DELETE /me/blocks/{id}: the time is free again (204); 404 when it is not one of the owner's live blocks. */
  deleteBlock: (id: string) => del<unknown>(`/me/blocks/${encodeURIComponent(id)}`),
};
