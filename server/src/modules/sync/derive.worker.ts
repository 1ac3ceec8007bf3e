/**
 * The worker side of derive-pool.ts: one task = one connection's derivation (deriveBusy). Runs in
 * a worker thread; answers `{ ok: true, derived }` or `{ ok: false, message }` (owner-facing),
 * never throws for bad calendar data (a plain object crosses the thread boundary intact, an
 * Error subclass would not).
 */
import os from 'node:os';
import { SYNC_WORKER_NICE } from '@avail/shared/constants.ts';
import { DeriveError, deriveBusy, type Derived, type DeriveOptions, type DeriveSource } from './derive.ts';

/**
 * The derivation yields the CPU to the thread that answers visitors: this thread's scheduling
 * priority is lowered to nice SYNC_WORKER_NICE. On Linux `setpriority(PRIO_PROCESS, 0, n)` (what
 * `os.setPriority(n)` calls) applies to the calling thread only (man 2 setpriority, BUGS), so the
 * main thread keeps nice 0; on a busy 2-core machine a sync then waits for visitors, not the
 * reverse. Where the OS refuses (or applies it process-wide, macOS/Windows), it is left as is.
 */
function lowerThisThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(SYNC_WORKER_NICE);
  } catch {
    // not permitted here: the worker still runs, at the normal priority
  }
}
lowerThisThreadPriority();

export interface DeriveTask {
  sources: DeriveSource[];
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
