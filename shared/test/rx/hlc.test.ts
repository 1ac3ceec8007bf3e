/**
 * The conflict clock (shared/src/rx/hlc.ts) with the shared conflict rule (conflict-resolution.ts)
 * and the re-stamping of waiting edits (stamp-correction.ts): unit behaviour and the skewed-clock
 * cases of issues 13 and 25. The convergence property (three devices, restarts, skewed clocks)
 * runs against the real server: server/src/modules/replication/hlc-convergence.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { resolveConflict } from '../../src/rx/conflict-resolution.ts';
import { HybridClock, MAX_CLOCK_AHEAD_MS, mergeClockStates } from '../../src/rx/hlc.ts';
import { correctedStamp, correctPushRows, stampEdit } from '../../src/rx/stamp-correction.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

interface Doc {
  id: string;
  value: number;
  edited_at: number;
  device_id: string;
  updated_at: number;
  _deleted: boolean;
}

describe('HybridClock', () => {
  it('stamps strictly increase on a device, even when its wall clock goes back', () => {
    let wall = 1_000_000;
    const c = new HybridClock(() => wall);
    const a = c.send();
    wall -= 5 * MIN; // the owner sets the clock back
    const b = c.send();
    expect(b).toBeGreaterThan(a);
  });

  it('a stamp received from elsewhere moves the clock past it (causal order)', () => {
    const c = new HybridClock(() => 9_000_000 - MIN);
    c.recv(9_000_000);
    expect(c.send()).toBeGreaterThan(9_000_000);
    c.recv('not a stamp');
    c.recv(Number.NaN);
    expect(c.latest()).toBe(9_000_001);
    expect(c.seen()).toBe(9_000_000);
  });

  it('the server time corrects the physical component; the shortest round trip wins', () => {
    let wall = 10_000_000;
    const c = new HybridClock(() => wall, () => wall);
    const at = (w: number) => ({ wall: w, mono: w });
    c.observeServerTime(wall + 10 * MIN + 50, at(wall), at(wall + 100)); // server 10 min ahead, 100 ms round trip
    expect(c.offset()).toBe(10 * MIN);
    c.observeServerTime(wall + 10 * MIN + 500, at(wall), at(wall + 1_000)); // a slower, less exact one is ignored
    expect(c.offset()).toBe(10 * MIN);
    wall += 1_000;
    expect(c.physicalNow()).toBe(wall + 10 * MIN);
  });

  it('issue 13: a device 10 minutes slow that edits after another device, in real time, wins (both synced once before)', () => {
    let real = Date.UTC(2030, 0, 7, 9, 0);
    const fast = new HybridClock(() => real, () => real);
    const slow = new HybridClock(() => real - 10 * MIN, () => real);
    for (const c of [fast, slow]) c.observeServerTime(real, c.reading(), c.reading());
    real += 60_000;
    const first: Doc = { id: 'r', value: 1, edited_at: fast.send(), device_id: 'fast-device', updated_at: 0, _deleted: false };
    real += 60_000; // the slow device edits a minute later, without having pulled the first edit
    const second: Doc = { id: 'r', value: 2, edited_at: slow.send(), device_id: 'slow-device', updated_at: 0, _deleted: false };
    expect(resolveConflict(first, second).winner).toBe(second);
    expect(resolveConflict(second, first).winner).toBe(second);
    // Without the correction (wall-clock stamps, as before), the later edit lost:
    expect(real - 10 * MIN).toBeLessThan(first.edited_at);
  });
});

describe('HybridClock across restarts and broken clocks (issue 25)', () => {
  const T = Date.UTC(2030, 0, 7, 9, 0);

  it('ignores a remote stamp more than 5 minutes ahead of its corrected clock, counts it, and keeps ordering by real time', () => {
    const c = new HybridClock(() => T, () => 0);
    const seen: number[] = [];
    expect(c.recv(T + MAX_CLOCK_AHEAD_MS, (s) => seen.push(s))).toBe(true);
    expect(c.recv(T + 2 * HOUR, (s) => seen.push(s))).toBe(false);
    expect(seen).toEqual([T + 2 * HOUR]);
    expect(c.ignoredStamps()).toBe(1);
    expect(c.latest()).toBe(T + MAX_CLOCK_AHEAD_MS);
    expect(c.seen()).toBe(T + MAX_CLOCK_AHEAD_MS);
  });

  it('after reading the server, counts time on the monotonic clock while the device clock agrees', () => {
    let wall = T - 10 * MIN;
    let mono = 500;
    const c = new HybridClock(() => wall, () => mono);
    c.observeServerTime(T, c.reading(), c.reading());
    expect(c.physicalNow()).toBe(T);
    wall += MIN + 300; // the two clocks agree within 2 s
    mono += MIN;
    expect(c.send()).toBe(T + MIN);
    expect(c.measuredThisSession()).toBe(true);
  });

  it('after the computer slept (the monotonic clock stopped) the reading is no longer trusted: the device clock plus the offset, until the next reading', () => {
    let wall = T - 10 * MIN;
    let mono = 500;
    const c = new HybridClock(() => wall, () => mono);
    c.observeServerTime(T, c.reading(), c.reading());
    wall += 8 * HOUR; // eight hours of sleep: the device clock ran, the monotonic clock did not
    mono += 1_000;
    expect(c.measuredThisSession()).toBe(false);
    expect(c.physicalNow()).toBe(T + 8 * HOUR);
    const edit = stampEdit(c);
    expect(edit).toMatchObject({ at: T + 8 * HOUR, measured: false });
    // A reading with a long round trip is taken: the old one is not trusted any more.
    const sent = c.reading();
    mono += 900;
    wall += 900;
    c.observeServerTime(T + 8 * HOUR + 450, sent, c.reading());
    expect(c.measuredThisSession()).toBe(true);
    // The edit is pushed at the real time it was made (the device clock was right; counting on the stopped monotonic clock would say later).
    expect(correctedStamp(edit, c)).toBe(T + 8 * HOUR);
  });

  it('a stored state never brings back the stamps of a clock that ran fast (another tab, a restart)', () => {
    const c = new HybridClock(() => T + 3 * MIN, () => 0); // three minutes fast
    c.send();
    const stale = c.snapshot(); // what another tab still holds: last = T + 3 min
    c.observeServerTime(T, c.reading(), c.reading());
    expect(c.latest()).toBeLessThan(T);
    c.restore(mergeClockStates(stale, c.snapshot()));
    expect(c.send()).toBe(T); // not T + 3 min + 1
    const restarted = new HybridClock(() => T + 3 * MIN, () => 0);
    restarted.restore(stale);
    expect(restarted.latest()).toBe(0);
  });

  it('a slow clock fixed between an offline edit and the reading, its offset known: the edit keeps its (right) stamp', () => {
    let real = T;
    let skew = -10 * MIN;
    const before = new HybridClock(() => real + skew, () => real);
    before.observeServerTime(real, before.reading(), before.reading());
    const c = new HybridClock(() => real + skew, () => real); // the app restarted offline
    c.restore(before.snapshot());
    real += MIN;
    const edit = stampEdit(c);
    expect(edit.at).toBe(real);
    real += 2 * MIN;
    skew = 0; // the system fixes the clock
    c.observeServerTime(real, c.reading(), c.reading());
    expect(correctedStamp(edit, c)).toBe(T + MIN); // the wall estimate alone would say 10 minutes earlier
  });

  it('the device clock set back between an offline edit and the reading (a fast clock fixed when the network returns): the edit keeps its real time', () => {
    let real = T;
    let skew = 2 * HOUR; // two hours fast, no reading yet in this run
    const c = new HybridClock(() => real + skew, () => real);
    const edit = stampEdit(c);
    real += 3 * HOUR;
    skew = 0; // the system fixes the clock as the network returns
    c.observeServerTime(real, c.reading(), c.reading());
    // Counted back on the monotonic clock; the device-clock estimate would say T + 2 h and overturn edits made elsewhere since.
    expect(correctedStamp(edit, c)).toBe(T);
  });

  it('keeps its state across a restart: an app restarted offline stamps with the offset it last measured', () => {
    const real = T;
    const before = new HybridClock(() => real - 10 * MIN, () => 0);
    before.observeServerTime(real, before.reading(), before.reading());
    const state = before.snapshot();
    expect(state).toMatchObject({ offsetMs: 10 * MIN, measuredAt: real }); // measured at the server's clock
    const after = new HybridClock(() => real - 10 * MIN + 2 * MIN, () => 0); // two minutes later, offline
    after.restore(state);
    expect(after.measuredThisSession()).toBe(false);
    expect(after.send()).toBe(real + 2 * MIN);
  });

  it('merging two stored states (two tabs writing): stamps by maximum, the offset of the later reading by the server\'s clock', () => {
    const a = { last: 10, seen: 8, offsetMs: 1_000, measuredAt: T + HOUR, roundTripMs: 40 };
    const b = { last: 12, seen: 7, offsetMs: 5_000, measuredAt: T, roundTripMs: 10 };
    expect(mergeClockStates(a, b)).toEqual({ last: 12, seen: 8, offsetMs: 1_000, measuredAt: T + HOUR, roundTripMs: 40 });
    expect(mergeClockStates(b, a)).toEqual({ last: 12, seen: 8, offsetMs: 1_000, measuredAt: T + HOUR, roundTripMs: 40 });
    expect(mergeClockStates(null, b)).toBe(b);
  });

  it('a newer measurement of another tab is taken only while this one has none of its own', () => {
    const c = new HybridClock(() => T, () => 0);
    expect(c.restore({ last: 5, seen: 4, offsetMs: 7_000, measuredAt: T })).toBe(true);
    expect(c.offset()).toBe(7_000);
    c.observeServerTime(T + 1_000, c.reading(), c.reading());
    c.restore({ offsetMs: 99_000, measuredAt: T + HOUR });
    expect(c.offset()).toBe(1_000);
    expect(c.restore({ last: 'x' as never, offsetMs: Number.NaN, measuredAt: T + 2 * HOUR })).toBe(false);
  });

  it('a clock that ran fast restarts its stamps at real time once corrected (issue 25, 4), never below a stamp seen elsewhere', () => {
    const c = new HybridClock(() => T + 25 * HOUR, () => 0);
    expect(c.send()).toBe(T + 25 * HOUR);
    c.recv(T - MIN);
    c.observeServerTime(T, c.reading(), c.reading());
    expect(c.send()).toBe(T);
    const d = new HybridClock(() => T + 25 * HOUR, () => 0);
    d.send();
    d.observeServerTime(T, d.reading(), d.reading());
    d.recv(T + 2 * MIN); // seen from a device two minutes ahead (within the bound)
    expect(d.send()).toBe(T + 2 * MIN + 1);
  });
});

describe('re-stamping waiting edits (stamp-correction.ts)', () => {
  const T = Date.UTC(2030, 0, 7, 9, 0);

  it('an edit made with a wrong, unmeasured offset is pushed at the real time it was made', () => {
    let real = T;
    const c = new HybridClock(() => real + 2 * HOUR, () => real); // two hours fast, never measured
    const edit = stampEdit(c);
    expect(edit).toMatchObject({ at: T + 2 * HOUR, wall: T + 2 * HOUR, off: 0, measured: false });
    real += 5 * MIN;
    c.observeServerTime(real, c.reading(), c.reading());
    expect(correctedStamp(edit, c)).toBe(T);
    // An edit stamped after the reading is real time already and keeps its stamp.
    real += MIN;
    const later = stampEdit(c);
    expect(later.measured).toBe(true);
    expect(correctedStamp(later, c)).toBe(T + 6 * MIN);
  });

  it('never goes below what the device had seen or the version it replaced (causality)', () => {
    const real = T;
    const c = new HybridClock(() => real - HOUR, () => real); // an hour slow, not measured in this run
    c.recv(T - 58 * MIN);
    const edit = stampEdit(c); // stamped T − 58 min + 1: after what it saw
    expect(edit.at).toBe(T - 58 * MIN + 1);
    c.observeServerTime(real, c.reading(), c.reading());
    expect(correctedStamp(edit, c)).toBe(T);
    expect(correctedStamp({ ...edit, wall: T - 3 * HOUR }, c)).toBe(T - 58 * MIN + 1);
    expect(correctedStamp({ ...edit, wall: T - 3 * HOUR }, c, T - 10 * MIN)).toBe(T - 10 * MIN + 1);
  });

  it('a stamp beyond what the server accepts becomes now (an entry from before issue 25, a clock changed meanwhile)', () => {
    const c = new HybridClock(() => T, () => 0);
    c.observeServerTime(T, c.reading(), c.reading());
    expect(correctedStamp({ at: T + 25 * HOUR }, c)).toBe(T);
    expect(correctedStamp({ at: T + MIN }, c)).toBe(T + MIN);
    // A floor beyond the bound is no floor.
    expect(correctedStamp({ at: T + 25 * HOUR, seen: T + 24 * HOUR }, c)).toBe(T);
  });

  it('correctPushRows re-stamps only the pending edit itself, in new objects', () => {
    const c = new HybridClock(() => T + HOUR, () => 0);
    const edit = stampEdit(c);
    c.observeServerTime(T, c.reading(), c.reading());
    const doc = { id: 'a', edited_at: edit.at, v: 1 };
    const other = { id: 'b', edited_at: T - MIN, v: 2 };
    const rows = [{ assumedMasterState: null, newDocumentState: doc }, { newDocumentState: other }];
    const out = correctPushRows(rows, (id) => (id === 'a' ? edit : undefined), c);
    expect(out.restamped).toBe(1);
    expect(out.rows[0]!.newDocumentState).toEqual({ id: 'a', edited_at: T, v: 1 });
    expect(out.rows[1]).toBe(rows[1]);
    expect(doc.edited_at).toBe(T + HOUR);
    // A newer state than the pending entry (edited again meanwhile) is not re-stamped from an older entry.
    const newer = correctPushRows([{ newDocumentState: { ...doc, edited_at: edit.at + 5 } }], () => edit, c);
    expect(newer.rows[0]!.newDocumentState.edited_at).toBe(edit.at + 5 > T + MAX_CLOCK_AHEAD_MS ? T : edit.at + 5);
  });
});
