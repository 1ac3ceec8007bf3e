/**
 * Re-stamping edits that waited on the device (issue 25). A local edit is stamped with the clock
 * the device had when it was made (hlc.ts); if that clock was wrong — a device restarted offline
 * whose clock is 10 minutes slow, a fresh install 2 hours fast — the stamp is wrong by as much.
 * Each pending edit therefore remembers the wall-clock time it was made, the offset it was
 * stamped with, whether that offset was measured in the same app run, and the largest stamp the
 * device had seen (`PendingEdit`); when the device pushes after reading the server's clock in a
 * new run, an edit stamped with an unmeasured (restored) offset becomes `wall + offset now` — the
 * real instant of the edit when the device's clock was wrong the whole time — never below a stamp the
 * device had seen when it made the edit, nor the version it built upon (causality), and never
 * beyond what the server accepts (MAX_CLOCK_AHEAD_MS; an edit cannot be later than now).
 *
 * Only the pushed copy is re-stamped: the device's own copy takes the server's version when it
 * is pulled back (RxDB writes a pulled master over a fork equal to the assumed master).
 */
import { MAX_CLOCK_AHEAD_MS, type HybridClock } from './hlc.ts';

/** What a device remembers of a local edit until the server acknowledges it. */
export interface PendingEdit {
  /** The stamp the edit was given (its `edited_at`, UTC epoch ms). */
  at: number;
  /** The device's own wall clock when the edit was made (ms); absent in entries from before issue 25. */
  wall?: number;
  /** The offset (server − device, ms) the stamp was made with. */
  off?: number;
  /** The largest stamp seen from elsewhere when the edit was made (its causal floor). */
  seen?: number;
  /**
   * true: stamped after the server's clock was read in the same app run — the stamp is already
   * real time (counted on the monotonic clock from that reading) and is never re-stamped.
   */
  measured?: boolean;
  /** The monotonic clock when the edit was made (ms) and the app run it was made in (`HybridClock.runId()`). */
  mono?: number;
  run?: string;
  /**
   * The stamp it was first pushed with, once corrected: a retry (its answer lost) sends the same
   * stamp, so the server sees the same revision and not a conflict with itself.
   */
  sent?: number;
}

/** Two estimates of an edit's time within this (ms) agree (the clocks' agreement tolerance of hlc.ts). */
const ESTIMATES_AGREE_MS = 2_000;
/** Re-stamps stay this far inside the server's bound (ms), so a retried push is never refused for a round trip's error. */
const BOUND_MARGIN_MS = 60_000;

/** A pending entry as stored: `PendingEdit`, or a bare stamp (written before issue 25). */
export type StoredPendingEdit = PendingEdit | number;

/** Normalises a stored pending entry. */
export function pendingEditOf(entry: StoredPendingEdit | undefined): PendingEdit | undefined {
  if (entry === undefined) return undefined;
  return typeof entry === 'number' ? { at: entry } : entry;
}

/** A new edit's stamp and what the device must remember to correct it later (UTC epoch ms). */
export function stampEdit(clock: HybridClock): PendingEdit {
  const seen = clock.seen();
  const at = clock.send();
  const { wall, mono } = clock.reading();
  return { at, wall, off: clock.offset(), seen, measured: clock.measuredThisSession(), mono, run: clock.runId() };
}

/**
 * The stamp a pending edit should be pushed with now (UTC epoch ms):
 * 1. an edit stamped before the server's clock was read in its app run (a restored or unknown
 *    offset), now that it was read → `max(estimate, floor + 1)`, where the estimate is
 *    `wall + offset now` — real time if the device's clock did not change between the edit and
 *    the reading. For an edit of this same app run the time counted back from the reading on the
 *    monotonic clock is a second estimate (right when the device clock was changed in between;
 *    later than real when the computer slept): the stamp given or the wall estimate when it
 *    agrees with that count (within 2 s), else the earlier of the two — which never lets a wrong
 *    clock overturn a later edit made elsewhere;
 * 2. else its own stamp;
 * 3. either way, beyond `physicalNow + MAX_CLOCK_AHEAD_MS − 1 min` (a clock changed between the
 *    edit and now, or an old entry without its wall time) → `max(physicalNow, floor + 1)`.
 * `floor` = the largest of the edit's `seen` and `builtOn` (the stamp of the version the edit
 * replaced) that is itself within that bound.
 */
export function correctedStamp(edit: PendingEdit, clock: HybridClock, builtOn?: number): number {
  const now = Math.round(clock.physicalNow());
  const cap = now + MAX_CLOCK_AHEAD_MS - BOUND_MARGIN_MS;
  const floor = Math.max(0, ...[edit.seen, builtOn].filter((s): s is number => typeof s === 'number' && Number.isFinite(s) && s <= cap));
  let at = edit.at;
  if (!edit.measured && clock.measuredThisSession() && edit.wall !== undefined && edit.off !== undefined) {
    const byWall = Math.round(edit.wall + clock.offset());
    const counted = edit.run === clock.runId() && edit.mono !== undefined ? clock.serverTimeAtMono(edit.mono) : null;
    let estimate = byWall;
    if (counted !== null) {
      // Two independent estimates that agree are right: the stamp it was given (its offset was
      // right), or the device clock with today's offset; if neither agrees with the monotonic
      // count, the earlier of the two.
      if (Math.abs(counted - edit.at) <= ESTIMATES_AGREE_MS) estimate = edit.at;
      else if (Math.abs(counted - byWall) <= ESTIMATES_AGREE_MS) estimate = byWall;
      else estimate = Math.min(byWall, counted);
    }
    at = Math.max(estimate, floor + 1);
  }
  if (at > cap) at = Math.max(now, floor + 1);
  return at;
}

/** A push row as the replication handler sends it. */
export interface StampedRow<T extends { id: string; edited_at: number }> {
  assumedMasterState?: T | null;
  newDocumentState: T;
}

/**
 * Re-stamps the rows of a push whose documents are pending edits of this device (new objects;
 * the inputs are left as they are). An edit already pushed once keeps the stamp it was sent with
 * (`PendingEdit.sent`), unless `again` (the server refused the stamps: 422 `clock_ahead`). A row whose document is not the pending edit (an older
 * state) or has no pending entry keeps its stamp unless it is beyond the server's bound.
 * @param pendingOf the pending entry of a document id.
 * @returns the rows to send, and how many were re-stamped.
 */
export function correctPushRows<T extends { id: string; edited_at: number }>(
  rows: ReadonlyArray<StampedRow<T>>,
  pendingOf: (id: string) => PendingEdit | undefined,
  clock: HybridClock,
  opts: { again?: boolean } = {},
): { rows: StampedRow<T>[]; restamped: number } {
  let restamped = 0;
  const out = rows.map((row) => {
    const doc = row.newDocumentState;
    const pending = pendingOf(doc.id);
    const edit: PendingEdit = pending && pending.at === doc.edited_at ? pending : { at: doc.edited_at };
    // A retry sends the stamp it first sent — unless the server refused it (`again`).
    const at = edit.sent !== undefined && !opts.again ? edit.sent : correctedStamp(edit, clock, row.assumedMasterState?.edited_at);
    if (at === doc.edited_at) return row;
    restamped += 1;
    return { ...row, newDocumentState: { ...doc, edited_at: at } };
  });
  return { rows: out, restamped };
}
