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
 *   (causal order), whatever the device's wall clock says;
 * - observeServerTime(): "physical now" is the device clock corrected by its offset from the
 *   server's clock, measured on each replication round trip (`X-Avail-Time`, the server's epoch ms,
 *   taken at the midpoint of the request). So two devices that both talked to the server order
 *   their edits by real time even when one's wall clock is an hour off and neither saw the other's
 *   edit — the case a pure logical clock cannot decide.
 *
 * The server refuses stamps more than MAX_CLOCK_AHEAD_MS ahead of its own clock (a broken clock
 * would otherwise win every later conflict).
 */

/** Response header with the server's clock (UTC epoch ms) on every replication response. */
export const SERVER_TIME_HEADER = 'X-Avail-Time';

/** Largest lead (ms) of a stamp over the server's clock that the server accepts: 24 h. */
export const MAX_CLOCK_AHEAD_MS = 24 * 60 * 60_000;

export class HybridClock {
  private last = 0;
  private offsetMs = 0;
  private bestRoundTripMs = Number.POSITIVE_INFINITY;
  private measuredAt = 0;

  /** `wallClock` = the device's own clock in UTC epoch ms (injectable for tests). */
  constructor(private readonly wallClock: () => number = Date.now) {}

  /** The device clock corrected by the last measured server offset (UTC epoch ms). */
  physicalNow(): number {
    return this.wallClock() + this.offsetMs;
  }

  /** The stamp of a new local edit (UTC epoch ms): strictly larger than every stamp sent or received. */
  send(): number {
    this.last = Math.max(Math.round(this.physicalNow()), this.last + 1);
    return this.last;
  }

  /** Merges a stamp seen from elsewhere; ignores non-numbers. */
  recv(stamp: unknown): void {
    if (typeof stamp === 'number' && Number.isFinite(stamp) && stamp > this.last) this.last = stamp;
  }

  /** The largest stamp sent or received so far (0 when none). */
  latest(): number {
    return this.last;
  }

  /**
   * Records the server's clock `serverMs` read during a request sent at `sentAt` and answered at
   * `receivedAt` (both device wall-clock ms). Keeps the estimate from the shortest round trip of
   * the last 10 minutes (the most exact), and always takes a newer one after that.
   */
  observeServerTime(serverMs: number, sentAt: number, receivedAt: number): void {
    if (!Number.isFinite(serverMs) || receivedAt < sentAt) return;
    const rtt = receivedAt - sentAt;
    const fresh = receivedAt - this.measuredAt > 10 * 60_000;
    if (!fresh && rtt > this.bestRoundTripMs) return;
    this.bestRoundTripMs = rtt;
    this.measuredAt = receivedAt;
    this.offsetMs = serverMs - (sentAt + rtt / 2);
  }

  /** The current offset estimate (server − device, ms). */
  offset(): number {
    return this.offsetMs;
  }
}

/** The device's clock (one per JavaScript realm: every local database of this device shares it). */
export const deviceClock = new HybridClock();
