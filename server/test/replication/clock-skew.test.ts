/**
 * Issue 25 with real devices: RxDB (Dexie on fake-indexeddb) replicating through the shared client
 * with a real server over HTTP (SQLite, and PostgreSQL when TEST_POSTGRES_URL is set). Time is
 * virtual: the server's clock (`t.clock`) and each device's wall clock (`real + skew`) move
 * together; a restart closes the device database and opens it again by name with a new clock.
 * The numbered cases are the measurements, each of which used to end the wrong way.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HybridClock } from '@avail/shared/rx/hlc.ts';
import { replaceRulesLocal } from '@avail/shared/rx/local-writes.ts';
import { buildUser, type BuiltUser } from '../factories.ts';
import type { TestApp } from '../test-app.ts';
import { listenTestApp, openDevice, waitFor, type Device, type ListeningApp } from './rx-device.ts';
import { openContent } from '../../src/lib/crypto.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

let t: TestApp;
let app: ListeningApp;
let baseUrl: string;
const devices: Device[] = [];
let real = 0;

beforeAll(async () => {
  app = await listenTestApp();
  ({ t, baseUrl } = app);
});
afterEach(async () => {
  while (devices.length) await devices.pop()!.close();
  t.clock.reset();
});
afterAll(async () => {
  await app.close();
});

/** Moves real time (the server's clock and every device's wall clock) by `ms`. */
function advance(ms: number): void {
  real += ms;
  t.clock.set(real);
}

/** A device whose wall clock is `skew` ms off real time (its monotonic clock follows real time). */
async function device(owner: BuiltUser, skew: number, opts: { name?: string; offline?: boolean; deviceId?: string; loseAnswer?: (path: string) => boolean } = {}): Promise<Device> {
  const clock = new HybridClock(() => real + skew, () => real);
  const d = await openDevice(baseUrl, owner.token, { ...opts, clock, retryTime: 50 });
  devices.push(d);
  return d;
}

/** Quits the app (database kept) and starts it again offline with a wall clock `skew` off. */
async function restartOffline(owner: BuiltUser, d: Device, name: string, skew: number, loseAnswer?: (path: string) => boolean): Promise<Device> {
  d.setOffline(true);
  devices.splice(devices.indexOf(d), 1);
  await d.close({ keep: true });
  return device(owner, skew, { name, offline: true, loseAnswer });
}

async function ruleOf(d: Device) {
  const docs = await d.db.availability_rules.find().exec();
  expect(docs).toHaveLength(1);
  return docs[0]!;
}

async function setRule(d: Device, start: string) {
  const cur = await ruleOf(d);
  await replaceRulesLocal(d.db, d.deviceId, [{ id: cur.id, weekday: cur.weekday, start_time_local: start, end_time_local: '18:00' }]);
  return ruleOf(d);
}

async function serverRule(owner: BuiltUser) {
  const r = await sql<{ start_time_local: string; edited_at: number }>`select start_time_local, edited_at from availability_rules where user_id = ${owner.user.id}`.execute(t.db);
  expect(r.rows).toHaveLength(1);
  return { ...r.rows[0]!, edited_at: Number(r.rows[0]!.edited_at) };
}

async function losersOf(owner: BuiltUser) {
  const r = await sql<{ loser_json: string }>`select loser_json from replication_conflicts where user_id = ${owner.user.id}`.execute(t.db);
  // Stored sealed (issue 26): opened with the server key.
  return r.rows.map((c) => JSON.parse(openContent(c.loser_json, t.config.AVAIL_SECRET_KEY)) as { start_time_local: string; device_id: string });
}

async function inSync(...ds: Device[]) {
  for (const d of ds) await d.replication.awaitInSync();
}

/** An owner with one weekly rule that two synced devices hold. */
async function twoDevices(skewB: number, nameB: string) {
  real = Date.now();
  t.clock.set(real);
  const owner = await buildUser(t);
  const a = await device(owner, 0);
  await inSync(a);
  await replaceRulesLocal(a.db, a.deviceId, [{ weekday: 1, start_time_local: '08:00', end_time_local: '18:00' }]);
  await inSync(a);
  const b = await device(owner, skewB, { name: nameB });
  await inSync(b);
  await waitFor(async () => (await b.db.availability_rules.count().exec()) === 1, 5000, 'B has the rule');
  return { owner, a, b };
}

describe('offline edits in real order across restarts and broken clocks (issue 25)', () => {
  it('(1) a device 10 min slow restarts offline and edits a minute after a correct device: its later edit wins', async () => {
    const name = `slow-${crypto.randomUUID().slice(0, 8)}`;
    const { owner, a, b } = await twoDevices(-10 * MIN, name);
    const slow = await restartOffline(owner, b, name, -10 * MIN);
    advance(MIN);
    await setRule(a, '09:00');
    await inSync(a);
    advance(MIN);
    const offline = await setRule(slow, '10:00');
    expect(offline.edited_at).toBe(real); // stamped with the correction kept across the restart, not 600 s behind
    slow.setOffline(false);
    await inSync(slow);
    await waitFor(async () => (await serverRule(owner)).start_time_local === '10:00', 5000, "the slow device's later edit on the server");
    expect((await losersOf(owner)).map((l) => l.start_time_local)).toEqual(['09:00']);
    await waitFor(async () => (await ruleOf(a)).start_time_local === '10:00', 5000, 'the correct device converges');
  });

  it('(2) a device whose clock went 2 h fast while closed edits first, offline; a correct device edits a minute later and wins', async () => {
    const name = `fast-${crypto.randomUUID().slice(0, 8)}`;
    const { owner, a, b } = await twoDevices(0, name);
    const fast = await restartOffline(owner, b, name, 2 * HOUR); // the clock was set 2 h ahead while the app was closed
    advance(MIN);
    const early = await setRule(fast, '10:00');
    expect(early.edited_at).toBe(real + 2 * HOUR); // what the device could know offline
    advance(MIN);
    await setRule(a, '09:00');
    await inSync(a);
    fast.setOffline(false);
    await inSync(fast);
    await waitFor(async () => (await ruleOf(fast)).start_time_local === '09:00', 5000, 'the fast device takes the later edit');
    const kept = await serverRule(owner);
    expect(kept.start_time_local).toBe('09:00');
    expect(kept.edited_at).toBe(real);
    expect((await losersOf(owner)).map((l) => l.start_time_local)).toEqual(['10:00']);
    expect(fast.replication.diagnostics()).toMatchObject({ restampedEdits: 1, clockAheadRefusals: 0, measured: true, offsetMs: -2 * HOUR });
    // The device holds the server's version, stamp included.
    expect((await ruleOf(fast)).edited_at).toBe(kept.edited_at);
  });

  it('(3) a stamp far in the future (written under the old 24 h bound) no longer drags later edits: they order by real time', async () => {
    real = Date.now();
    t.clock.set(real);
    const owner = await buildUser(t);
    const seed = await device(owner, 0);
    await inSync(seed);
    await replaceRulesLocal(seed.db, seed.deviceId, [
      { weekday: 1, start_time_local: '08:00', end_time_local: '18:00' },
      { weekday: 2, start_time_local: '08:00', end_time_local: '18:00' },
    ]);
    await inSync(seed);
    await devices.splice(devices.indexOf(seed), 1)[0]!.close();
    // The Tuesday rule carries a stamp 20 h ahead, as a broken clock could write before this bound.
    await sql`update availability_rules set edited_at = ${real + 20 * HOUR}, updated_at = updated_at + 1 where user_id = ${owner.user.id} and weekday = 2`.execute(t.db);
    // Under the old rule both edits below were stamped after the future stamp and tied: the larger device id (A's) won.
    const a = await device(owner, 0, { deviceId: 'd-zzzz' });
    const b = await device(owner, 0, { deviceId: 'd-aaaa' });
    await inSync(a, b);
    await waitFor(async () => (await b.db.availability_rules.count().exec()) === 2, 5000, 'both rules on B');
    expect(a.replication.diagnostics().ignoredRemoteStamps).toBeGreaterThanOrEqual(1);
    a.setOffline(true);
    b.setOffline(true);
    const monday = async (d: Device, start: string) => {
      const rules = await d.db.availability_rules.find().exec();
      await replaceRulesLocal(
        d.db,
        d.deviceId,
        rules.map((r) => ({ id: r.id, weekday: r.weekday, start_time_local: r.weekday === 1 ? start : r.start_time_local, end_time_local: r.end_time_local })),
      );
    };
    advance(MIN);
    await monday(a, '09:00');
    advance(5 * MIN);
    await monday(b, '10:00'); // five minutes later, without having seen A's edit
    b.setOffline(false);
    await inSync(b);
    a.setOffline(false);
    await inSync(a);
    const r = await sql<{ start_time_local: string }>`select start_time_local from availability_rules where user_id = ${owner.user.id} and weekday = 1`.execute(t.db);
    expect(r.rows[0]!.start_time_local).toBe('10:00');
  });

  it("(4) the server's clock set back after the device read it: the push is refused once, re-stamped, and accepted — the queue never blocks", async () => {
    const name = `ahead-${crypto.randomUUID().slice(0, 8)}`;
    const { owner, b } = await twoDevices(0, name);
    const pushes = () => b.requests.filter((p) => p.endsWith('/availability_rules/push')).length;
    const before = pushes();
    t.clock.set(real - 10 * MIN); // the server's clock is corrected ten minutes back (the device still counts from its reading)
    const edit = await setRule(b, '11:00');
    expect(edit.edited_at - real).toBeLessThanOrEqual(1); // real time by the device's reading: 10 min ahead of the server now
    await inSync(b);
    await waitFor(async () => (await serverRule(owner)).start_time_local === '11:00', 5000, 'the edit on the server');
    expect(pushes() - before).toBe(2); // refused once, then accepted: no loop
    expect(b.replication.diagnostics()).toMatchObject({ clockAheadRefusals: 1 });
    expect((await serverRule(owner)).edited_at).toBe(real - 10 * MIN);
    // The device's own copy takes the stamp the server kept; its next edit builds on it without a conflict.
    await waitFor(async () => (await ruleOf(b)).edited_at === real - 10 * MIN, 5000, "the device's copy with the server's stamp");
    await setRule(b, '12:00');
    await inSync(b);
    await waitFor(async () => (await serverRule(owner)).start_time_local === '12:00', 5000, 'the next edit on the server');
    expect(await losersOf(owner)).toEqual([]);
  });

  it('(5) a re-stamped push whose answer is lost is sent again with the same stamp: no conflict with itself', async () => {
    const name = `lost-${crypto.randomUUID().slice(0, 8)}`;
    const { owner, b } = await twoDevices(0, name);
    let lost = 0;
    const loseFirstPush = (path: string) => {
      if (!path.endsWith('/availability_rules/push') || lost > 0) return false;
      lost += 1;
      t.clock.set(real + 50); // the next reading moves the offset by 50 ms: a fresh correction would differ
      return true;
    };
    const fast = await restartOffline(owner, b, name, 2 * HOUR, loseFirstPush); // its clock went 2 h fast while closed
    advance(MIN);
    await setRule(fast, '10:00');
    fast.setOffline(false);
    await inSync(fast);
    await waitFor(async () => (await serverRule(owner)).start_time_local === '10:00', 5000, 'the edit on the server');
    expect(lost).toBe(1);
    expect(fast.requests.filter((p) => p.endsWith('/availability_rules/push')).length).toBeGreaterThanOrEqual(2);
    expect((await serverRule(owner)).edited_at).toBe(real);
    expect(await losersOf(owner)).toEqual([]);
  });
});
