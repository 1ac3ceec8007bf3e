/**
 * The worker-thread pool that runs derivations (derive.ts) off the thread that answers visitors.
 *
 * - piscina, at most SYNC_WORKER_MAX_THREADS threads (1 on a 2-core machine: one core stays for
 *   requests), none while idle (threads end 5 s after their last task).
 * - The worker entry is `derive-worker.mjs` beside the running file: in `server/dist` the compiled
 *   worker (server/scripts/build.mjs), in `server/src` a loader that registers tsx itself, so the same pool works
 *   under `npm start` (`node dist/main.js`), `npx tsx`, vitest and Playwright's server.
 * - Per task: a timeout (SYNC_DERIVE_TIMEOUT_MS; the worker is terminated) and a heap limit per
 *   worker (`resourceLimits`, SYNC_WORKER_MAX_HEAP_MB; a worker past it is ended by V8/Node and
 *   only its task fails). Either way the caller gets a DeriveError with an owner-facing message
 *   and the pool starts a fresh worker for the next task.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { SYNC_DERIVE_TIMEOUT_MS, SYNC_WORKER_MAX_HEAP_MB, SYNC_WORKER_MAX_THREADS } from '@avail/shared/constants.ts';
import { DeriveError, type Derived, type DeriveOptions, type DeriveSource } from './derive.ts';
import type { DeriveTask, DeriveTaskResult } from './derive.worker.ts';

export interface DerivePoolOptions {
  /** Worker threads at most; default min(SYNC_WORKER_MAX_THREADS, max(1, cores − 1)). */
  threads?: number;
  /** Per-task time limit (ms); default SYNC_DERIVE_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Old-generation heap limit per worker (MB); default SYNC_WORKER_MAX_HEAP_MB. */
  maxHeapMb?: number;
  /** Worker module (tests give a hostile one); default derive-worker.mjs. */
  workerFile?: string;
}

const DEFAULT_WORKER = fileURLToPath(new URL('./derive-worker.mjs', import.meta.url));

function defaultThreads(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.min(SYNC_WORKER_MAX_THREADS, Math.max(1, cores - 1));
}

const seconds = (ms: number) => {
  const s = Math.round(ms / 1000);
  return `${s} ${s === 1 ? 'second' : 'seconds'}`;
};

export class DerivePool {
  private readonly piscina: Piscina;
  readonly timeoutMs: number;
  readonly maxHeapMb: number;

  constructor(options: DerivePoolOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? SYNC_DERIVE_TIMEOUT_MS;
    this.maxHeapMb = options.maxHeapMb ?? SYNC_WORKER_MAX_HEAP_MB;
    const threads = options.threads ?? defaultThreads();
    this.piscina = new Piscina({
      filename: options.workerFile ?? DEFAULT_WORKER,
      minThreads: 0,
      maxThreads: threads,
      // A thread ends 5 s after its last task, so the memory a big calendar took goes back to the OS
      // soon after a sync burst (the next sync starts a thread again in tens of ms).
      idleTimeout: 5_000,
      // Queued tasks wait for a thread; bounded so a flood of syncs cannot pile up memory.
      maxQueue: 1_000,
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
  }

  /**
   * Derives one connection's rows in a worker. The sources are copied to the worker (structured
   * clone) and the rows copied back.
   * @throws DeriveError (owner-facing message) for unreadable data, a budget exceeded, the time
   *   limit, the memory limit or a worker that died.
   */
  async run(sources: ReadonlyArray<DeriveSource>, opts: DeriveOptions): Promise<Derived> {
    const task: DeriveTask = { sources: sources.map((s) => ({ icsText: s.icsText, calendarUrl: s.calendarUrl })), opts: { ...opts, ownerEmails: [...opts.ownerEmails] } };
    let result: DeriveTaskResult;
    try {
      result = await this.piscina.run(task, { signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      const e = err as { name?: string; code?: string; message?: string };
      if (e?.name === 'AbortError' || e?.name === 'TimeoutError') {
        throw new DeriveError(`This calendar took longer than ${seconds(this.timeoutMs)} to read, so it was not synced.`);
      }
      if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory/i.test(e?.message ?? '')) {
        throw new DeriveError(`This calendar needs more than ${this.maxHeapMb} MB of memory to read, so it was not synced.`);
      }
      throw new DeriveError('Calendar data could not be read.');
    }
    if (!result.ok) throw new DeriveError(result.message);
    return result.derived;
  }

  /** Threads currently alive (tests). */
  get threadCount(): number {
    return this.piscina.threads.length;
  }

  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}

let shared: DerivePool | null = null;

/** The process's pool, created on first use. */
function derivePool(): DerivePool {
  shared ??= new DerivePool();
  return shared;
}

/** Replaces the process's pool (tests: shorter timeout, smaller heap). The old one is closed. */
export async function configureDerivePool(options: DerivePoolOptions): Promise<DerivePool> {
  const old = shared;
  shared = new DerivePool(options);
  await old?.close();
  return shared;
}

/** Ends the process's pool (shutdown); a later derivation creates a new one. */
export async function closeDerivePool(): Promise<void> {
  const old = shared;
  shared = null;
  await old?.close();
}

/** `derivePool().run(sources, opts)`: the derivation, off the request thread. */
export function deriveOffThread(sources: ReadonlyArray<DeriveSource>, opts: DeriveOptions): Promise<Derived> {
  return derivePool().run(sources, opts);
}
