/**
 * The worker side of derive-pool.ts: one task = one connection's derivation (deriveBusy). Runs in
 * a worker thread; answers `{ ok: true, derived }` or `{ ok: false, message }` (owner-facing),
 * never throws for bad calendar data (a plain object crosses the thread boundary intact, an
 * Error subclass would not).
 */
import { DeriveError, deriveBusy, type Derived, type DeriveOptions } from './derive.ts';

export interface DeriveTask {
  sources: Array<{ icsText: string }>;
  opts: DeriveOptions;
}

export type DeriveTaskResult = { ok: true; derived: Derived } | { ok: false; message: string };

export default function derive(task: DeriveTask): DeriveTaskResult {
  try {
    return { ok: true, derived: deriveBusy(task.sources, task.opts) };
  } catch (err) {
    if (err instanceof DeriveError) return { ok: false, message: err.message };
    return { ok: false, message: 'Calendar data could not be read.' };
  }
}
