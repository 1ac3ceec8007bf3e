/**
 * Issue 13, against the real server: three simulated devices with clock offsets within ±1 h (each
 * a HybridClock corrected by X-Avail-Time, as the device client does), random offline edits and
 * deletes of weekly rules, random reconnect order (push with the version each device last saw,
 * then pull) → the server and every device converge on the state of replaying all edits in stamp
 * order (stamps that respect causality: an edit made after seeing another is stamped later), and every edit that was overwritten without its author having seen the winner is in the
 * conflict log. fast-check, on the HTTP replication endpoints.
 */
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameRevision } from '@avail/shared/rx/conflict-resolution.ts';
import { HybridClock, SERVER_TIME_HEADER } from '@avail/shared/rx/hlc.ts';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '@avail/shared/rx/replication-protocol.ts';
import { buildUser, type BuiltUser } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

const V = { [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) };
const MIN = 60_000;

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
  | { kind: 'sync'; dev: number; gap: number };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  t.clock.reset();
  await t?.close();
});

async function run(offsets: number[], actions: Action[]) {
  let real = Date.UTC(2030, 0, 7, 9, 0);
  t.clock.set(real);
  const owner: BuiltUser = await buildUser(t);
  const DOC_IDS = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()]; // document ids belong to one owner
  const devices = offsets.map((o, i) => ({
    name: `device-${i}`,
    offset: o,
    clock: new HybridClock(() => real + o),
    local: new Map<string, Rule>(),
    base: new Map<string, Rule>(),
    pending: new Set<string>(),
    /** Largest stamp this device made or saw, tracked here independently of its clock. */
    seenMax: 0,
  }));
  const causalViolations: string[] = [];
  const edits: Rule[] = [];
  const pushes: Array<{ assumed: Rule | null; next: Rule }> = [];

  const sync = async (d: (typeof devices)[number]) => {
    const wall = real + d.offset;
    if (d.pending.size) {
      const rows = [...d.pending].map((id) => ({ assumedMasterState: d.base.get(id) ?? null, newDocumentState: d.local.get(id)! }));
      for (const r of rows) pushes.push({ assumed: r.assumedMasterState, next: r.newDocumentState });
      const res = await request(t.app).post('/api/replication/availability_rules/push').set(owner.auth).set(V).send(rows).expect(200);
      d.clock.observeServerTime(Number(res.headers[SERVER_TIME_HEADER.toLowerCase()]), wall, wall);
      for (const m of res.body as Rule[]) {
        d.local.set(m.id, m);
        d.clock.recv(m.edited_at);
        d.seenMax = Math.max(d.seenMax, m.edited_at);
      }
      d.pending.clear();
    }
    const pulled = await request(t.app).get('/api/replication/availability_rules/pull').query({ limit: 1000 }).set(owner.auth).set(V).expect(200);
    d.clock.observeServerTime(Number(pulled.headers[SERVER_TIME_HEADER.toLowerCase()]), wall, wall);
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
    if (a.kind === 'sync') {
      await sync(d);
      continue;
    }
    const id = DOC_IDS[a.doc]!;
    const cur = d.local.get(id);
    if (cur?._deleted) continue; // a deleted rule is gone from the screen
    if (a.kind === 'delete' && !cur) continue; // nothing to delete
    const stamp = d.clock.send();
    if (stamp <= d.seenMax) causalViolations.push(`${d.name} stamped ${stamp} after seeing ${d.seenMax}`);
    d.seenMax = Math.max(d.seenMax, stamp);
    const doc: Rule =
      a.kind === 'edit'
        ? { id, weekday: 1, start_time_local: `${String(8 + a.hour).padStart(2, '0')}:00`, end_time_local: '20:00', edited_at: stamp, device_id: d.name, updated_at: 0, _deleted: false }
        : { ...cur!, edited_at: stamp, device_id: d.name, _deleted: true };
    d.local.set(id, doc);
    d.pending.add(id);
    edits.push(doc);
  }
  for (let round = 0; round < 2; round++) for (const d of devices) await sync(d);
  const conflicts = await t.db.selectFrom('replication_conflicts').select(['loser_json']).where('user_id', '=', owner.user.id).execute();
  return { devices, edits, pushes, causalViolations, losers: conflicts.map((c) => JSON.parse(c.loser_json) as Rule) };
}

/** Replay in stamp order (ties by device id): a deletion is final, otherwise the last edit wins. */
function replay(edits: Rule[]) {
  const out = new Map<string, string>();
  const sorted = [...edits].sort((a, b) => a.edited_at - b.edited_at || a.device_id.localeCompare(b.device_id));
  for (const e of sorted) {
    if (out.get(e.id) === 'deleted') continue;
    out.set(e.id, e._deleted ? 'deleted' : e.start_time_local);
  }
  return out;
}
const view = (m: Map<string, Rule>) => new Map([...m].map(([id, d]) => [id, d._deleted ? 'deleted' : d.start_time_local]));

describe('convergence against the server (fast-check)', () => {
  it('devices with ±1 h clocks converge on the replay in stamp order; overwritten edits are logged', async () => {
    const action: fc.Arbitrary<Action> = fc.oneof(
      fc.record({ kind: fc.constant('edit' as const), dev: fc.nat(2), doc: fc.nat(2), hour: fc.nat(11), gap: fc.integer({ min: 1, max: 10 * MIN }) }),
      fc.record({ kind: fc.constant('delete' as const), dev: fc.nat(2), doc: fc.nat(2), gap: fc.integer({ min: 1, max: 10 * MIN }) }),
      fc.record({ kind: fc.constant('sync' as const), dev: fc.nat(2), gap: fc.integer({ min: 1, max: 10 * MIN }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -60 * MIN, max: 60 * MIN }), { minLength: 3, maxLength: 3 }), fc.array(action, { maxLength: 30 }), async (offsets, actions) => {
        const { devices, edits, pushes, losers, causalViolations } = await run(offsets, actions);
        // The stamps are a linear extension of causal order: an edit made after seeing another is later.
        expect(causalViolations).toEqual([]);
        const expected = replay(edits);
        const pulled = devices[0]!.local; // after the final rounds every device holds the server's state
        expect(view(pulled)).toEqual(expected);
        for (const d of devices) expect(view(d.local)).toEqual(expected);
        // Every pushed version that is not the final one was either built upon (a later push
        // assumed it: its author's successor saw it) or is in the conflict log.
        for (const p of pushes) {
          const final = pulled.get(p.next.id)!;
          if (sameRevision(final as never, p.next as never)) continue;
          const builtUpon = pushes.some((q) => q.assumed && sameRevision(q.assumed as never, p.next as never));
          const logged = losers.some((l) => sameRevision(l as never, p.next as never));
          expect(builtUpon || logged).toBe(true);
        }
      }),
      {
        numRuns: 100,
        // Always tried: a device an hour fast edits; one an hour slow pulls that edit, then edits the same rule.
        examples: [
          [
            [60 * MIN, -60 * MIN, 0],
            [
              { kind: 'edit', dev: 0, doc: 0, hour: 1, gap: 1_000 },
              { kind: 'sync', dev: 0, gap: 1_000 },
              { kind: 'sync', dev: 1, gap: 1_000 },
              { kind: 'edit', dev: 1, doc: 0, hour: 2, gap: 1_000 },
              { kind: 'sync', dev: 1, gap: 1_000 },
            ],
          ],
        ],
      },
    );
  }, 120_000);
});
