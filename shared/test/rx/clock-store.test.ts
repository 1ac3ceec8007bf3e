/**
 * The conflict clock kept in the device database (shared/src/rx/clock-store.ts, issue 25): an app
 * restarted offline stamps with the correction it last knew; a measurement written by another tab
 * (the replicating leader) reaches this tab's clock; local edits remember what re-stamping needs.
 * RxDB on Dexie over fake-indexeddb; a restart closes the database and opens it again by name.
 */
import 'fake-indexeddb/auto';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { createAvailDatabase, type AvailDatabase } from '../../src/rx/avail-database.ts';
import { attachClock, clockOf, CLOCK_LOCAL_ID } from '../../src/rx/clock-store.ts';
import { deviceClock, HybridClock } from '../../src/rx/hlc.ts';
import { putExceptionLocal, readPending } from '../../src/rx/local-writes.ts';

const T = Date.UTC(2030, 0, 7, 9, 0);
const MIN = 60_000;
const open: AvailDatabase[] = [];

async function openDb(name: string): Promise<AvailDatabase> {
  const db = await createAvailDatabase({ storage: getRxStorageDexie(), userId: 'u', name, multiInstance: false });
  open.push(db);
  return db;
}

/** Waits until the clock's coalesced write has landed in the local document. */
async function stored(db: AvailDatabase, check: (s: Record<string, number>) => boolean): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const doc = await db.getLocal<{ state: Record<string, number> }>(CLOCK_LOCAL_ID);
    if (doc && check(doc.get('state'))) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the clock state was not stored');
}

afterEach(async () => {
  while (open.length) {
    const db = open.pop()!;
    if (!db.closed) await db.remove();
  }
});

describe('the clock in the device database', () => {
  it('an app restarted offline stamps its edits with the offset it measured before (a device 10 min slow)', async () => {
    const name = `clock-${crypto.randomUUID().slice(0, 8)}`;
    let real = T;
    const first = await openDb(name);
    const before = new HybridClock(() => real - 10 * MIN, () => real);
    const detach = await attachClock(first, before);
    before.observeServerTime(real, before.reading(), before.reading());
    await stored(first, (s) => s.offsetMs === 10 * MIN);
    detach();
    await first.close();

    real += 5 * MIN; // restarted, offline: no server to ask
    const again = await openDb(name);
    const after = new HybridClock(() => real - 10 * MIN, () => real);
    await attachClock(again, after);
    expect(clockOf(again)).toBe(after);
    expect(after.measuredThisSession()).toBe(false);
    const doc = await putExceptionLocal(again, 'd-slow', { date: '2030-01-08', start_time_local: null, end_time_local: null });
    expect(doc.edited_at).toBe(real); // real time, not 10 minutes behind
    const pending = await readPending(again);
    expect(pending[`availability_exceptions/${doc.id}`]).toMatchObject({ at: real, wall: real - 10 * MIN, off: 10 * MIN, seen: 0, measured: false, run: after.runId() });
    await again.remove();
  });

  it("takes the leader tab's measurement from the shared document, and its stamps never go backwards", async () => {
    const db = await openDb(`clock-${crypto.randomUUID().slice(0, 8)}`);
    const real = T;
    const clock = new HybridClock(() => real + 2 * 60 * MIN, () => real); // this tab: two hours fast, never measured
    await attachClock(db, clock);
    expect(clock.send()).toBe(real + 120 * MIN);
    // The leader tab measured the server and wrote its state (RxDB broadcasts local documents between tabs).
    await db.upsertLocal(CLOCK_LOCAL_ID, { state: { last: real - MIN, seen: real - MIN, offsetMs: -120 * MIN, measuredAt: real + 120 * MIN + 1 } });
    for (let i = 0; i < 100 && clock.offset() !== -120 * MIN; i++) await new Promise((r) => setTimeout(r, 10));
    expect(clock.offset()).toBe(-120 * MIN);
    expect(clock.physicalNow()).toBe(real);
    expect(clock.send()).toBe(real + 120 * MIN + 1); // still after its own earlier stamp; re-stamped when pushed
  });

  it('a database without an attached clock stamps with the device clock', async () => {
    const db = await openDb(`clock-${crypto.randomUUID().slice(0, 8)}`);
    expect(clockOf(db)).toBe(deviceClock);
  });
});
