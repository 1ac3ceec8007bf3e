/**
 * The conflict clock's state kept in the device database (issue 25): restored when the database
 * opens, so an app restarted offline stamps its edits with the correction it last knew, and
 * shared by every tab of the browser — the replicating (leader) tab measures the server's clock,
 * the others read its measurement through the local document, which RxDB broadcasts between tabs.
 *
 * The state lives in the local (never replicated) document `hlc-state` as `{ state: ClockState }`.
 */
import { modifyLocal, type AvailDatabase } from './avail-database.ts';
import { deviceClock, mergeClockStates, type ClockState, type HybridClock } from './hlc.ts';

/** Local document holding the clock's `ClockState`. */
export const CLOCK_LOCAL_ID = 'hlc-state';

const clocks = new WeakMap<AvailDatabase, HybridClock>();

/** The clock that stamps edits of `db`: the one attached with `attachClock`, else this realm's `deviceClock`. */
export function clockOf(db: AvailDatabase): HybridClock {
  return clocks.get(db) ?? deviceClock;
}

/**
 * Restores `clock` from `db`'s stored state (merged: stamps by maximum, the newer measurement's
 * offset), then keeps the two in step until the returned function is called: every change of the
 * clock is written back (coalesced: one write at a time, the latest state, merged with what
 * another tab stored meanwhile: stamps by maximum, the later reading's offset), every write by
 * another tab is merged in.
 * @returns the detach function (stops writing and listening; a last pending write still lands).
 */
export async function attachClock(db: AvailDatabase, clock: HybridClock = deviceClock): Promise<() => void> {
  clocks.set(db, clock);
  const stored = await db.getLocal<{ state: ClockState }>(CLOCK_LOCAL_ID);
  clock.restore(stored?.get('state') as ClockState | undefined);

  let writing: Promise<void> | null = null;
  let dirty = false;
  const flush = (): void => {
    dirty = true;
    if (writing) return;
    writing = (async () => {
      while (dirty && !db.closed) {
        dirty = false;
        await modifyLocal<{ state: ClockState }>(db, CLOCK_LOCAL_ID, (cur) => ({ state: mergeClockStates(cur?.state, clock.snapshot()) })).catch(() => undefined);
      }
      writing = null;
    })();
  };
  const unsubscribe = clock.subscribe(flush);
  const fromOtherTabs = db.getLocal$<{ state: ClockState }>(CLOCK_LOCAL_ID).subscribe((d) => {
    if (d) clock.restore(d.get('state') as ClockState | undefined);
  });
  return () => {
    unsubscribe();
    fromOtherTabs.unsubscribe();
  };
}
