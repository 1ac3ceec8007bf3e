/**
 * The conflict clock of writable documents: a hybrid logical clock (Kulkarni et al., "Logical
 * Physical Clocks", OPODIS 2014) at millisecond grain, whose stamps are the documents' `edited_at`
 * (UTC epoch ms, a plain number, so documents written before this clock keep their order and need
 * no migration). Conflicts are decided by the larger stamp, ties by the larger `device_id`
 * (conflict-resolution.ts).
 *
 * - send(): the stamp of a local edit = max(physical now, last stamp + 1) — strictly increasing on
 *   the device, never behind a stamp it has seen;
 * - recv(stamp): a stamp seen from elsewhere (a pulled document, a master returned by a push)
 *   advances the clock, so an edit made after seeing another edit always carries a larger stamp
 *   (causal order), whatever the device's wall clock says — unless the stamp is more than
 *   MAX_CLOCK_AHEAD_MS ahead of this device's corrected clock: such a stamp is ignored (counted in
 *   `ignoredStamps()`), so one broken clock elsewhere cannot drag every device's edits into the
 *   future (the 5-minute `config.maxDrift` of Actual Budget's clock, `packages/crdt/src/crdt/timestamp.ts`, whose
 *   recv throws instead);
 * - observeServerTime(): "physical now" is the device clock corrected by its offset from the
 *   server's clock, measured on each replication round trip (`X-Avail-Time`, the server's epoch ms,
 *   taken at the midpoint of the request). So two devices that both talked to the server order
 *   their edits by real time even when one's wall clock is an hour off and neither saw the other's
 *   edit — the case a pure logical clock cannot decide.
 *
 * The state (last stamp, last stamp seen, offset, when and how exactly it was measured) survives a
 * restart: `snapshot()` / `restore()`, kept in the device database by `clock-store.ts` and shared
 * by all tabs. Edits made before a new measurement are re-stamped when they are pushed
 * (`stamp-correction.ts`). The server refuses stamps more than MAX_CLOCK_AHEAD_MS ahead of its own
 * clock (422 `clock_ahead`).
 */

/** Response header with the server's clock (UTC epoch ms) on every replication response. */
export const SERVER_TIME_HEADER = 'X-Avail-Time';

/**
 * Largest lead (ms) of a stamp over the server's clock that the server accepts, and over a
 * device's corrected clock that the device merges: 5 minutes.
 */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;

/** Own stamps more than this ahead of the corrected clock (ms) are dropped as the clock's floor on a measurement. */
const REBASE_TOLERANCE_MS = 1_000;
/** A newer measurement replaces a more exact (shorter round trip) one after this long (ms). */
const MEASUREMENT_FRESH_MS = 10 * 60_000;
/**
 * When the device clock and the monotonic clock disagree by more than this (ms) about the time
 * since the last reading, the reading is no longer trusted: the computer slept (the monotonic
 * clock stops during system sleep on Linux and macOS) or the device clock was changed.
 */
const CLOCKS_DISAGREE_MS = 2_000;

/** Merges two stored states: stamps by maximum, the offset of the later reading (by the server's clock). */
export function mergeClockStates(a: ClockState | null | undefined, b: ClockState): ClockState {
  if (!a) return b;
  const newer = (b.measuredAt ?? 0) >= (a.measuredAt ?? 0) ? b : a;
  return {
    last: Math.max(a.last ?? 0, b.last ?? 0),
    seen: Math.max(a.seen ?? 0, b.seen ?? 0),
    offsetMs: newer.offsetMs,
    measuredAt: newer.measuredAt,
    roundTripMs: newer.roundTripMs,
  };
}

/** The clock's persisted state (all UTC epoch ms or ms durations). */
export interface ClockState {
  /** Largest stamp sent or received (informational: `restore` takes only `seen`). */
  last: number;
  /** Largest stamp received from elsewhere or acknowledged by the server (the causal floor). */
  seen: number;
  /** server − device clock, ms. */
  offsetMs: number;
  /**
   * The server's clock at the reading the offset came from (0 = never): orders readings of
   * different tabs and runs whatever the device's clock did meanwhile.
   */
  measuredAt: number;
  /** Round trip of that measurement, ms (Infinity/absent = none). */
  roundTripMs?: number;
}

/** One reading of the device's clocks: `wall` = its own clock (UTC epoch ms, may be wrong or be changed), `mono` = a monotonic clock (ms, any origin). */
export interface ClockReading {
  wall: number;
  mono: number;
}

export class HybridClock {
  private last = 0;
  private seenMax = 0;
  private offsetMs = 0;
  private bestRoundTripMs = Number.POSITIVE_INFINITY;
  private measuredAt = 0;
  /** The server's clock at a monotonic (and device-clock) instant, from this run's best reading (null = none, or no longer trusted). */
  private anchor: { server: number; mono: number; wall: number } | null = null;
  /** This app run (a new clock object per run): edits of the same run can be dated on the monotonic clock. */
  private readonly run = Math.random().toString(36).slice(2, 12);
  private ignored = 0;
  private readonly listeners = new Set<(state: ClockState) => void>();

  /**
   * @param wallClock the device's own clock, UTC epoch ms (injectable for tests);
   * @param monoClock a monotonic clock in ms (`performance.now()`), unaffected by changes of the
   *   wall clock: after a measurement in this run, time is counted on it from the server's clock.
   */
  constructor(
    private readonly wallClock: () => number = Date.now,
    private readonly monoClock: () => number = () => performance.now(),
  ) {}

  /** This app run's id (see `PendingEdit.run`). */
  runId(): string {
    return this.run;
  }

  /**
   * The server's time at monotonic instant `mono` of this run, counted from this run's reading
   * (null without a trusted one).
   */
  serverTimeAtMono(mono: number): number | null {
    const anchor = this.trustedAnchor();
    return anchor ? Math.round(anchor.server + (mono - anchor.mono)) : null;
  }

  /** The anchor, dropped when the two clocks no longer agree about the time elapsed since it (sleep or a changed device clock). */
  private trustedAnchor(): { server: number; mono: number; wall: number } | null {
    const a = this.anchor;
    if (!a) return null;
    const elapsedMono = this.monoClock() - a.mono;
    const elapsedWall = this.wallClock() - a.wall;
    if (Math.abs(elapsedWall - elapsedMono) > CLOCKS_DISAGREE_MS) {
      this.anchor = null; // until the next reading: the device clock plus the offset measured then
      this.bestRoundTripMs = Number.POSITIVE_INFINITY;
    }
    return this.anchor;
  }

  /** Both clocks now. */
  reading(): ClockReading {
    return { wall: this.wallClock(), mono: this.monoClock() };
  }

  /** The device's own (uncorrected) clock, UTC epoch ms. */
  wallNow(): number {
    return this.wallClock();
  }

  /**
   * The corrected clock (UTC epoch ms): after a reading in this run, the server's clock then plus
   * the monotonic time since, while the device clock agrees about that time; otherwise (before a
   * reading, after the computer slept, after the device clock was changed) the device clock plus
   * the offset last known, until the next reading.
   */
  physicalNow(): number {
    const anchor = this.trustedAnchor();
    if (anchor) return anchor.server + (this.monoClock() - anchor.mono);
    return this.wallClock() + this.offsetMs;
  }

  /** The stamp of a new local edit (UTC epoch ms): strictly larger than every stamp sent or received. */
  send(): number {
    this.last = Math.max(Math.round(this.physicalNow()), this.last + 1);
    this.emit();
    return this.last;
  }

  /**
   * Merges a stamp seen from elsewhere (UTC epoch ms); ignores non-numbers. A stamp more than
   * MAX_CLOCK_AHEAD_MS ahead of `physicalNow()` is not merged: it is counted (`ignoredStamps()`)
   * and reported through `onIgnored`, and the call returns false.
   * @returns true when the stamp was merged (or was not ahead of the clock).
   */
  recv(stamp: unknown, onIgnored?: (stamp: number, aheadMs: number) => void): boolean {
    if (typeof stamp !== 'number' || !Number.isFinite(stamp)) return true;
    const ahead = stamp - this.physicalNow();
    if (ahead > MAX_CLOCK_AHEAD_MS) {
      this.ignored += 1;
      onIgnored?.(stamp, ahead);
      return false;
    }
    if (stamp > this.last || stamp > this.seenMax) {
      this.last = Math.max(this.last, stamp);
      this.seenMax = Math.max(this.seenMax, stamp);
      this.emit();
    }
    return true;
  }

  /** The largest stamp sent or received so far (0 when none). */
  latest(): number {
    return this.last;
  }

  /** The largest stamp received from elsewhere or acknowledged (0 when none): the floor of a re-stamp. */
  seen(): number {
    return this.seenMax;
  }

  /** How many remote stamps `recv` ignored for being too far ahead, since this clock was created. */
  ignoredStamps(): number {
    return this.ignored;
  }

  /**
   * Records the server's clock `serverMs` (UTC epoch ms) read during a request sent at `sent` and
   * answered at `received` (`reading()` before and after). The first reading of this run is
   * always taken (the device's clock may have been changed while the app was closed); after that
   * the one with the shortest round trip of the last 10 minutes (the most exact), and always a
   * newer one after that. When the corrected clock shows that this device's own stamps ran ahead
   * of real time (a clock that was fast), the clock falls back to the larger of the corrected time
   * and the last stamp seen from elsewhere or acknowledged — the device's own unacknowledged
   * stamps are re-stamped when pushed (stamp-correction.ts), so they are no floor for its next edits.
   * `force` takes the reading whatever its round trip (the server refused a stamp as ahead of its
   * clock: the estimate in use is wrong, e.g. the server's clock was set back).
   */
  observeServerTime(serverMs: number, sent: ClockReading, received: ClockReading, force = false): void {
    if (!Number.isFinite(serverMs) || !Number.isFinite(sent.mono) || !(received.mono >= sent.mono)) return;
    const rtt = received.mono - sent.mono;
    const mid = sent.mono + rtt / 2;
    const anchor = this.trustedAnchor();
    const fresh = force || !anchor || mid - anchor.mono > MEASUREMENT_FRESH_MS;
    if (!fresh && rtt > this.bestRoundTripMs) return;
    this.bestRoundTripMs = rtt;
    this.anchor = { server: serverMs, mono: mid, wall: sent.wall + (received.wall - sent.wall) / 2 };
    this.measuredAt = serverMs;
    this.offsetMs = Math.round(serverMs - this.anchor.wall);
    const now = Math.round(this.physicalNow());
    if (this.last > now + REBASE_TOLERANCE_MS) this.last = Math.max(this.seenMax, now - 1);
    this.emit();
  }

  /** Whether the server's clock was read in this app run and the reading is still trusted (no sleep, no clock change since). */
  measuredThisSession(): boolean {
    return this.trustedAnchor() !== null;
  }

  /** The current offset estimate (server − device wall clock, ms). */
  offset(): number {
    return this.trustedAnchor() ? Math.round(this.physicalNow() - this.wallClock()) : this.offsetMs;
  }

  /** The state to persist (see {@link ClockState}); `offsetMs` is the current estimate. */
  snapshot(): ClockState {
    return {
      last: this.last,
      seen: this.seenMax,
      offsetMs: this.offset(),
      measuredAt: this.measuredAt,
      roundTripMs: Number.isFinite(this.bestRoundTripMs) ? this.bestRoundTripMs : undefined,
    };
  }

  /**
   * Merges a persisted or another tab's state: the stamps seen by maximum (a stored `last` is not
   * taken: after a fast clock was corrected it would bring its stamps back); the offset of a later
   * reading (by `measuredAt`, the server's clock) while this clock has no trusted one of its own. Malformed
   * fields are ignored; it never counts as a measurement of this run. Returns true when anything
   * changed.
   */
  restore(state: Partial<ClockState> | null | undefined): boolean {
    if (!state || typeof state !== 'object') return false;
    const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
    let changed = false;
    // Only what was seen from elsewhere or acknowledged is a floor; a stored `last` may carry this
    // device's own stamps from a clock that ran fast, which are re-stamped when pushed anyway.
    const seen = num(state.seen);
    if (seen !== null && seen > this.seenMax) {
      this.seenMax = seen;
      if (seen > this.last) this.last = seen;
      changed = true;
    }
    const offset = num(state.offsetMs);
    const at = num(state.measuredAt);
    if (!this.trustedAnchor() && offset !== null && at !== null && at > this.measuredAt) {
      this.offsetMs = offset;
      this.measuredAt = at;
      changed = true;
    }
    return changed;
  }

  /** Calls `listener` with the new state after every change; returns the unsubscribe function. */
  subscribe(listener: (state: ClockState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    if (this.listeners.size === 0) return;
    const s = this.snapshot();
    for (const l of this.listeners) l(s);
  }
}

/** The device's clock (one per JavaScript realm: the default of every local database of this device). */
export const deviceClock = new HybridClock();
