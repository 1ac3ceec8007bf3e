/**
 * The conflict clock (shared/src/rx/hlc.ts) with the shared conflict rule (conflict-resolution.ts):
 * unit behaviour, the skewed-clock case from issue 13, and a fast-check property: three devices
 * with clock offsets within ±1 h, random offline edits and deletes, random sync order → the server
 * and every device converge on the state of replaying all edits in stamp order, and the stamps
 * respect causality (an edit made after seeing another is stamped later).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveConflict, sameRevision } from '../../src/rx/conflict-resolution.ts';
import { HybridClock } from '../../src/rx/hlc.ts';

const MIN = 60_000;

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
    const c = new HybridClock(() => 1_000);
    c.recv(9_000_000);
    expect(c.send()).toBeGreaterThan(9_000_000);
    c.recv('not a stamp');
    c.recv(Number.NaN);
    expect(c.latest()).toBe(9_000_001);
  });

  it('the server time corrects the physical component; the shortest round trip wins', () => {
    let wall = 10_000_000;
    const c = new HybridClock(() => wall);
    c.observeServerTime(wall + 10 * MIN + 50, wall, wall + 100); // server 10 min ahead, 100 ms round trip
    expect(c.offset()).toBe(10 * MIN);
    c.observeServerTime(wall + 10 * MIN + 500, wall, wall + 1_000); // a slower, less exact one is ignored
    expect(c.offset()).toBe(10 * MIN);
    wall += 1_000;
    expect(c.physicalNow()).toBe(wall + 10 * MIN);
  });

  it('issue 13: a device 10 minutes slow that edits after another device, in real time, wins (both synced once before)', () => {
    let real = Date.UTC(2030, 0, 7, 9, 0);
    const fast = new HybridClock(() => real);
    const slow = new HybridClock(() => real - 10 * MIN);
    for (const c of [fast, slow]) c.observeServerTime(real, c === fast ? real : real - 10 * MIN, c === fast ? real : real - 10 * MIN);
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

// ── Convergence property ──────────────────────────────────────────────────────────────────────

type Action =
  | { kind: 'edit'; dev: number; doc: number; value: number; gap: number }
  | { kind: 'delete'; dev: number; doc: number; gap: number }
  | { kind: 'sync'; dev: number; gap: number };

const DOCS = ['d0', 'd1', 'd2'];

interface Device {
  name: string;
  clock: HybridClock;
  local: Map<string, Doc>;
  /** Server state this device last saw, per doc (RxDB's assumedMasterState). */
  base: Map<string, Doc>;
  pending: Set<string>;
  /** Largest stamp this device made or saw, tracked by the test independently of the clock. */
  seenMax: number;
}

function simulate(offsets: number[], actions: Action[]) {
  let real = Date.UTC(2030, 0, 7, 9, 0);
  const server = new Map<string, Doc>();
  const conflictLog: Array<{ loser: Doc; winner: Doc }> = [];
  const edits: Doc[] = [];
  const causalViolations: string[] = [];
  const devices: Device[] = offsets.map((o, i) => ({
    name: `device-${i}`,
    clock: new HybridClock(() => real + o),
    local: new Map(),
    base: new Map(),
    pending: new Set(),
    seenMax: 0,
  }));

  const stampEdit = (d: Device): number => {
    const s = d.clock.send();
    if (s <= d.seenMax) causalViolations.push(`${d.name} stamped ${s} after seeing ${d.seenMax}`);
    d.seenMax = Math.max(d.seenMax, s);
    return s;
  };

  const sync = (d: Device) => {
    d.clock.observeServerTime(real, real + offsets[devices.indexOf(d)]!, real + offsets[devices.indexOf(d)]!);
    // push (the server's rule: replication.service.ts push)
    for (const id of d.pending) {
      const next = d.local.get(id)!;
      const master = server.get(id) ?? null;
      const assumed = d.base.get(id) ?? null;
      if (master && sameRevision(master, next)) continue;
      if (!master || (assumed && sameRevision(master, assumed))) {
        server.set(id, next);
        continue;
      }
      const { winner, loser } = resolveConflict(master, next);
      conflictLog.push({ winner, loser });
      server.set(id, winner);
    }
    d.pending.clear();
    // pull: the device takes the server's state and merges its stamps
    for (const [id, doc] of server) {
      d.local.set(id, doc);
      d.base.set(id, doc);
      d.clock.recv(doc.edited_at);
      d.seenMax = Math.max(d.seenMax, doc.edited_at);
    }
  };

  for (const a of actions) {
    real += a.gap;
    const d = devices[a.dev]!;
    if (a.kind === 'sync') {
      sync(d);
      continue;
    }
    const id = DOCS[a.doc]!;
    const cur = d.local.get(id);
    if (cur?._deleted) continue; // a deleted rule is gone from the screen: nothing to edit
    const doc: Doc =
      a.kind === 'edit'
        ? { id, value: a.value, edited_at: stampEdit(d), device_id: d.name, updated_at: 0, _deleted: false }
        : cur
          ? { ...cur, edited_at: stampEdit(d), device_id: d.name, _deleted: true }
          : { id, value: -1, edited_at: stampEdit(d), device_id: d.name, updated_at: 0, _deleted: true };
    d.local.set(id, doc);
    d.pending.add(id);
    edits.push(doc);
  }
  // Everyone reconnects (twice round, in order) and the system settles.
  for (let round = 0; round < 2; round++) for (const d of devices) sync(d);
  return { server, devices, edits, conflictLog, causalViolations };
}

/** Replaying every edit in stamp order (ties by device id): a deletion is final; otherwise the last edit wins. */
function replay(edits: Doc[]): Map<string, { deleted: boolean; value: number }> {
  const out = new Map<string, { deleted: boolean; value: number }>();
  const sorted = [...edits].sort((a, b) => a.edited_at - b.edited_at || (a.device_id < b.device_id ? -1 : a.device_id > b.device_id ? 1 : 0));
  for (const e of sorted) {
    const cur = out.get(e.id);
    if (cur?.deleted) continue;
    out.set(e.id, e._deleted ? { deleted: true, value: 0 } : { deleted: false, value: e.value });
  }
  return out;
}

const view = (m: Map<string, Doc>) =>
  new Map([...m].map(([id, d]) => [id, d._deleted ? { deleted: true, value: 0 } : { deleted: false, value: d.value }]));

describe('convergence under skewed clocks (fast-check)', () => {
  const action: fc.Arbitrary<Action> = fc.oneof(
    fc.record({ kind: fc.constant('edit' as const), dev: fc.nat(2), doc: fc.nat(2), value: fc.nat(1000), gap: fc.integer({ min: 1, max: 10 * MIN }) }),
    fc.record({ kind: fc.constant('delete' as const), dev: fc.nat(2), doc: fc.nat(2), gap: fc.integer({ min: 1, max: 10 * MIN }) }),
    fc.record({ kind: fc.constant('sync' as const), dev: fc.nat(2), gap: fc.integer({ min: 1, max: 10 * MIN }) }),
  );
  const offsets = fc.array(fc.integer({ min: -60 * MIN, max: 60 * MIN }), { minLength: 3, maxLength: 3 });

  it('server and devices converge on the replay of all edits in stamp order; stamps follow causality; losers are logged', () => {
    fc.assert(
      fc.property(offsets, fc.array(action, { maxLength: 60 }), (offs, actions) => {
        const { server, devices, edits, conflictLog, causalViolations } = simulate(offs, actions);
        expect(causalViolations).toEqual([]);
        const expected = replay(edits);
        expect(view(server)).toEqual(expected);
        for (const d of devices) expect(view(d.local)).toEqual(expected);
        // Every conflict had a loser recorded, and no recorded loser is the final state.
        for (const c of conflictLog) expect(sameRevision(c.loser, server.get(c.loser.id)!)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
