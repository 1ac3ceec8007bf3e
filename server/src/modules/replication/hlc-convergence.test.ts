/**
 * Issues 13 and 25, against the real server (SQLite, and PostgreSQL when TEST_POSTGRES_URL is
 * set): three simulated devices whose wall clocks are off by up to ±2 h — one of them up to +48 h —
 * make random offline edits and deletes of weekly rules, restart while offline (the clock's
 * in-memory state is lost and restored from what the device database kept: `snapshot()` /
 * `restore()`), sleep (the monotonic clock stops while the device clock runs), lose the answer to
 * a push the server applied, and reconnect in random order the way the device client does: read the server's
 * clock first in each app run, push with stamps corrected by `correctPushRows`, re-stamp and push
 * once more on 422 `clock_ahead`, then pull. fast-check asserts:
 * - nothing acknowledged is lost: every pushed version is the final one, was built upon (a later
 *   push assumed it), or is in the conflicts list;
 * - every device converges on the server's state;
 * - each rule ends with the edit made last in real time, unless it was deleted (a delete wins a
 *   conflict: the documented rule) — whatever the devices' clocks said;
 * - a device never needs more than one retry for a batch (a broken clock never blocks its queue);
 * - a device's own edit pushed twice (re-stamped differently) is never logged as replaced.
 */
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameEdit, sameRevision } from '@avail/shared/rx/conflict-resolution.ts';
import { HybridClock, mergeClockStates, SERVER_TIME_HEADER, type ClockState } from '@avail/shared/rx/hlc.ts';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '@avail/shared/rx/replication-protocol.ts';
import { correctPushRows, stampEdit, type PendingEdit } from '@avail/shared/rx/stamp-correction.ts';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { openContent } from '../../lib/crypto.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

const V = { [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) };
const MIN = 60_000;
const HOUR = 60 * MIN;

interface Rule {
  id: string;
  weekday: number;
  start_time_local: string;
  end_time_local: string;
  edited_at: number;
  device_id: string;
  updated_at: number;
  _deleted: boolean;
}

type Action =
  | { kind: 'edit'; dev: number; doc: number; hour: number; gap: number }
  | { kind: 'delete'; dev: number; doc: number; gap: number }
  | { kind: 'sync'; dev: number; gap: number }
  /** A sync whose push is applied by the server but whose answer never reaches the device: it pushes again later. */
  | { kind: 'lost'; dev: number; gap: number }
  /**
   * The computer sleeps for `gap` (≥ 5 s): the device clock runs on, the monotonic clock does not.
   * A shorter sleep is within the clocks' 2-second agreement tolerance (hlc.ts CLOCKS_DISAGREE_MS),
   * the precision of the clock after a sleep.
   */
  | { kind: 'sleep'; dev: number; gap: number }
  | { kind: 'restart'; dev: number; gap: number };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  t.clock.reset();
  await t?.close();
});

async function run(skews: number[], actions: Action[]) {
  let real = Date.UTC(2030, 0, 7, 9, 0);
  t.clock.set(real);
  const owner: BuiltUser = await buildUser(t);
  const DOC_IDS = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()]; // document ids belong to one owner
  const devices = skews.map((skew, i) => ({
    name: `device-${i}`,
    skew,
    /** How far the monotonic clock is behind real time (the sleeps it did not count). */
    monoLag: 0,
    clock: null as unknown as HybridClock,
    /** What the device database keeps of the clock (clock-store.ts writes it after every change). */
    stored: null as ClockState | null,
    local: new Map<string, Rule>(),
    base: new Map<string, Rule>(),
    pending: new Map<string, PendingEdit>(),
    /** Largest stamp this device saw from the server, tracked here independently of its clock. */
    seenMax: 0,
    maxTriesPerBatch: 0,
  }));
  const newClock = (d: (typeof devices)[number]) => {
    d.clock = new HybridClock(() => real + d.skew, () => real - d.monoLag);
    d.clock.restore(d.stored);
    // As clock-store.ts does: each change merged into the stored state, which comes back (the echo) and is merged in.
    d.clock.subscribe((s) => {
      d.stored = mergeClockStates(d.stored, s);
      d.clock.restore(d.stored);
    });
  };
  for (const d of devices) newClock(d);
  const causalViolations: string[] = [];
  const edits: Array<Rule & { real: number }> = [];
  const pushes: Array<{ assumed: Rule | null; next: Rule; acknowledged: boolean }> = [];
  const serverTime = (res: { headers: Record<string, string> }) => Number(res.headers[SERVER_TIME_HEADER.toLowerCase()]);

  const sync = async (d: (typeof devices)[number], answerLost = false) => {
    const at = { wall: real + d.skew, mono: real - d.monoLag };
    // The first request of an app run reads the server's clock (replication-client.ts pushCorrected).
    if (!d.clock.measuredThisSession()) {
      const res = await request(t.app).get('/api/replication/time').set(owner.auth).set(V).expect(200);
      expect(res.body.server_time).toBe(real);
      d.clock.observeServerTime(serverTime(res), at, at);
    }
    if (d.pending.size) {
      const rows = [...d.pending.keys()].map((id) => ({ assumedMasterState: d.base.get(id) ?? null, newDocumentState: d.local.get(id)! }));
      let tries = 0;
      let res;
      let sent;
      for (;;) {
        tries += 1;
        sent = correctPushRows(rows, (id) => d.pending.get(id), d.clock, { again: tries > 1 }).rows;
        // Kept with the pending edit (replication-client.ts recordSentStamps): a retry sends the same stamp.
        sent.forEach((r, i) => {
          const e = d.pending.get(r.newDocumentState.id);
          if (e && e.at === rows[i]!.newDocumentState.edited_at) e.sent = r.newDocumentState.edited_at;
        });
        res = await request(t.app).post('/api/replication/availability_rules/push').set(owner.auth).set(V).send(sent);
        d.clock.observeServerTime(serverTime(res), at, at);
        if (res.status === 422 && res.body.code === 'clock_ahead' && tries === 1) continue;
        break;
      }
      expect(res.status).toBe(200);
      d.maxTriesPerBatch = Math.max(d.maxTriesPerBatch, tries);
      for (const r of sent) pushes.push({ assumed: r.assumedMasterState ?? null, next: r.newDocumentState, acknowledged: !answerLost });
      if (answerLost) return; // applied on the server; the device still holds its edits as pending
      const conflicts = new Set((res.body as Rule[]).map((m) => m.id));
      for (const r of sent) if (!conflicts.has(r.newDocumentState.id)) d.clock.recv(r.newDocumentState.edited_at);
      for (const m of res.body as Rule[]) {
        d.local.set(m.id, m);
        d.clock.recv(m.edited_at);
      }
      d.pending.clear();
    }
    const pulled = await request(t.app).get('/api/replication/availability_rules/pull').query({ limit: 1000 }).set(owner.auth).set(V).expect(200);
    d.clock.observeServerTime(serverTime(pulled), at, at);
    for (const doc of pulled.body.documents as Rule[]) {
      d.local.set(doc.id, doc);
      d.base.set(doc.id, doc);
      d.clock.recv(doc.edited_at);
      d.seenMax = Math.max(d.seenMax, doc.edited_at);
    }
  };

  for (const a of actions) {
    real += a.gap;
    t.clock.set(real);
    const d = devices[a.dev]!;
    if (a.kind === 'sync' || a.kind === 'lost') {
      await sync(d, a.kind === 'lost');
      continue;
    }
    if (a.kind === 'sleep') {
      d.monoLag += a.gap;
      continue;
    }
    if (a.kind === 'restart') {
      // The app quits while offline: only what the device database kept survives.
      newClock(d);
      continue;
    }
    const id = DOC_IDS[a.doc]!;
    const cur = d.local.get(id);
    if (cur?._deleted) continue; // a deleted rule is gone from the screen
    if (a.kind === 'delete' && !cur) continue; // nothing to delete
    const edit = stampEdit(d.clock);
    const doc: Rule =
      a.kind === 'edit'
        ? { id, weekday: 1, start_time_local: `${String(8 + a.hour).padStart(2, '0')}:00`, end_time_local: '20:00', edited_at: edit.at, device_id: d.name, updated_at: 0, _deleted: false }
        : { ...cur!, edited_at: edit.at, device_id: d.name, _deleted: true };
    d.local.set(id, doc);
    d.pending.set(id, edit);
    edits.push({ ...doc, real });
  }
  for (let round = 0; round < 2; round++) for (const d of devices) await sync(d);
  // Causality on the wire: every pushed version is later than the version it was built upon.
  for (const p of pushes) if (p.assumed && p.next.edited_at <= p.assumed.edited_at) causalViolations.push(`${p.next.device_id} pushed ${p.next.edited_at} over ${p.assumed.edited_at}`);
  const conflicts = await t.db.selectFrom('replication_conflicts').select(['loser_json', 'winner_json']).where('user_id', '=', owner.user.id).execute();
  return {
    devices,
    edits,
    pushes,
    causalViolations,
    losers: conflicts.map((c) => JSON.parse(openContent(c.loser_json, t.config.AVAIL_SECRET_KEY)) as Rule),
    winners: conflicts.map((c) => JSON.parse(openContent(c.winner_json, t.config.AVAIL_SECRET_KEY)) as Rule),
  };
}

/** Replay in real-time order: a deletion is final (it wins every conflict), otherwise the last edit wins. */
function replayInRealOrder(edits: Array<Rule & { real: number }>) {
  const out = new Map<string, string>();
  for (const e of [...edits].sort((a, b) => a.real - b.real)) {
    if (out.get(e.id) === 'deleted') continue;
    out.set(e.id, e._deleted ? 'deleted' : e.start_time_local);
  }
  return out;
}
const view = (m: Map<string, Rule>) => new Map([...m].map(([id, d]) => [id, d._deleted ? 'deleted' : d.start_time_local]));

const CONVERGENCE_RUNS = Number(process.env.CONVERGENCE_RUNS ?? 100);

describe('convergence against the server (fast-check)', () => {
  it('three devices (±2 h, one up to +48 h), offline edits, restarts: real-time order, nothing acknowledged lost, one retry at most', async () => {
    const gap = fc.integer({ min: 1, max: 10 * MIN });
    const action: fc.Arbitrary<Action> = fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('edit' as const), dev: fc.nat(2), doc: fc.nat(2), hour: fc.nat(11), gap }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), dev: fc.nat(2), doc: fc.nat(2), gap }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('sync' as const), dev: fc.nat(2), gap }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('lost' as const), dev: fc.nat(2), gap }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('sleep' as const), dev: fc.nat(2), gap: fc.integer({ min: 5_000, max: 12 * HOUR }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const), dev: fc.nat(2), gap }) },
    );
    const skews = fc.tuple(
      fc.integer({ min: -2 * HOUR, max: 2 * HOUR }),
      fc.integer({ min: -2 * HOUR, max: 2 * HOUR }),
      fc.integer({ min: -2 * HOUR, max: 48 * HOUR }),
    );
    await fc.assert(
      fc.asyncProperty(skews, fc.array(action, { maxLength: 40 }), async (skewList, actions) => {
        const { devices, edits, pushes, losers, winners, causalViolations } = await run(skewList, actions);
        expect(causalViolations).toEqual([]);
        // A device's own edit, re-stamped on a retry, is never logged as replaced by another device.
        losers.forEach((l, i) => expect(sameEdit(l as never, winners[i] as never)).toBe(false));
        const expected = replayInRealOrder(edits);
        const final = devices[0]!.local; // after the final rounds every device holds the server's state
        expect(view(final)).toEqual(expected);
        for (const d of devices) expect(view(d.local)).toEqual(expected);
        for (const d of devices) expect(d.maxTriesPerBatch).toBeLessThanOrEqual(2);
        for (const p of pushes) {
          if (!p.acknowledged) continue; // its answer was lost: the device pushes its edit again
          const kept = final.get(p.next.id)!;
          // Kept as it is, or the same edit of the same device kept with the stamp of an earlier push of it.
          if (sameRevision(kept as never, p.next as never) || sameEdit(kept as never, p.next as never)) continue;
          const builtUpon = pushes.some((q) => q.assumed && sameRevision(q.assumed as never, p.next as never));
          const logged = losers.some((l) => sameRevision(l as never, p.next as never));
          expect(builtUpon || logged).toBe(true);
        }
      }),
      {
        numRuns: CONVERGENCE_RUNS,
        examples: [
          // Issue 25 (1): a device 10 min slow syncs, restarts offline, edits a minute after a correct device did: it wins.
          [
            [0, -10 * MIN, 0],
            [
              { kind: 'sync', dev: 1, gap: 1_000 },
              { kind: 'restart', dev: 1, gap: 1_000 },
              { kind: 'edit', dev: 0, doc: 0, hour: 1, gap: MIN },
              { kind: 'sync', dev: 0, gap: 1_000 },
              { kind: 'edit', dev: 1, doc: 0, hour: 2, gap: MIN },
              { kind: 'sync', dev: 1, gap: 1_000 },
            ],
          ],
          // The computer sleeps 8 h after a reading (its monotonic clock stops); another device edits; then this one, later: it wins.
          [
            [0, 0, 0],
            [
              { kind: 'sync', dev: 0, gap: 1_000 },
              { kind: 'sleep', dev: 0, gap: 8 * HOUR },
              { kind: 'edit', dev: 1, doc: 0, hour: 1, gap: MIN },
              { kind: 'sync', dev: 1, gap: 1_000 },
              { kind: 'edit', dev: 0, doc: 0, hour: 2, gap: MIN },
              { kind: 'sync', dev: 0, gap: 1_000 },
            ],
          ],
          // Issue 25 (2): a device 2 h fast, never synced, edits first; a correct device a minute later wins.
          [
            [0, 2 * HOUR, 0],
            [
              { kind: 'edit', dev: 1, doc: 0, hour: 1, gap: 1_000 },
              { kind: 'edit', dev: 0, doc: 0, hour: 2, gap: MIN },
              { kind: 'sync', dev: 0, gap: 1_000 },
              { kind: 'sync', dev: 1, gap: 1_000 },
            ],
          ],
          // Issue 25 (4): a device 47 h fast edits offline, restarts, edits again, then syncs: refused once, re-stamped, accepted.
          [
            [0, 0, 47 * HOUR],
            [
              { kind: 'edit', dev: 2, doc: 0, hour: 1, gap: 1_000 },
              { kind: 'restart', dev: 2, gap: 1_000 },
              { kind: 'edit', dev: 2, doc: 1, hour: 3, gap: 1_000 },
              { kind: 'edit', dev: 0, doc: 1, hour: 2, gap: MIN },
              { kind: 'sync', dev: 0, gap: 1_000 },
              { kind: 'sync', dev: 2, gap: 1_000 },
              { kind: 'edit', dev: 1, doc: 0, hour: 4, gap: MIN },
              { kind: 'sync', dev: 1, gap: 1_000 },
            ],
          ],
        ],
      },
    );
  }, 300_000);
});
