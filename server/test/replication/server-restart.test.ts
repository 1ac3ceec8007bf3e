/**
 * Durability of pushes: the real server runs as its own process and is killed with SIGKILL while
 * a device is pushing a batch. Every write the server acknowledged must be there after the restart,
 * and the device's unacknowledged writes must arrive once it reconnects (issue 3).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceRulesLocal, readPending } from '@avail/shared/rx/local-writes.ts';
import { buildUser } from '../factories.ts';
import { freePort, serverProcess, type ServerProcess } from '../server-process.ts';
import { createTestDb, type TestDb } from '../test-db.ts';
import { openDevice, waitFor, type Device } from './rx-device.ts';

let testDb: TestDb;
let server: ServerProcess;
const secretKey = randomBytes(32).toString('hex');
const startServer = () => server.start();
const killServer = () => server.kill();

beforeAll(async () => {
  testDb = await createTestDb();
  server = serverProcess(testDb, await freePort(), secretKey);
});
afterAll(async () => {
  await killServer();
  await testDb.destroy();
});

describe('server killed in the middle of a push', () => {
  it('loses nothing it acknowledged, and the device re-pushes the rest after the restart', async () => {
    const { token, auth } = await buildUser({ db: testDb.db });
    await startServer();
    let pushes = 0;
    let killAt: number | null = null;
    let killed: Promise<void> | null = null;
    const d: Device = await openDevice(`http://127.0.0.1:${server.port}`, token, {
      retryTime: 100,
      onRequest(p) {
        if (!p.endsWith('/availability_rules/push')) return;
        pushes += 1;
        if (killAt !== null && pushes === killAt) {
          const delay = [0, 8, 25][rounds % 3];
          setTimeout(() => {
            killed = killServer();
          }, delay);
        }
      },
    });
    let rounds = 0;
    try {
      await d.replication.awaitInSync();
      d.setOffline(true);
      // 1,200 rules = 12 push batches of 100; no two of a day overlap (the device refuses that, issue 23):
      // the k-th slot of a day is 5 minutes from minute 8·k.
      const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      const rules = Array.from({ length: 1200 }, (_, i) => ({
        weekday: i % 7,
        start_time_local: hhmm(Math.floor(i / 7) * 8),
        end_time_local: hhmm(Math.floor(i / 7) * 8 + 5),
      }));
      await replaceRulesLocal(d.db, d.deviceId, rules);
      const all = (await d.db.availability_rules.find().exec()).map((r) => r.id).sort();
      expect(all).toHaveLength(1200);

      for (rounds = 0; rounds < 3; rounds++) {
        killAt = pushes + 2; // the second push batch after reconnecting
        killed = null;
        d.setOffline(false);
        await waitFor(() => killed !== null, 20_000, 'kill during a push');
        await killed;
        d.setOffline(true);
        // What the device counts as acknowledged: every rule no longer pending.
        const pending = await readPending(d.db);
        const acked = all.filter((id) => pending[`availability_rules/${id}`] === undefined);
        await startServer();
        const res = await fetch(`http://127.0.0.1:${server.port}/api/me/availability-rules`, { headers: auth });
        const onServer = new Set(((await res.json()) as { rules: { id: string }[] }).rules.map((r) => r.id));
        const lost = acked.filter((id) => !onServer.has(id));
        expect(lost).toEqual([]);
        expect(acked.length).toBeLessThan(1200); // the kill really landed mid-way
      }
      killAt = null;
      d.setOffline(false);
      await waitFor(async () => Object.keys(await readPending(d.db)).length === 0, 20_000, 'all writes acknowledged');
      const res = await fetch(`http://127.0.0.1:${server.port}/api/me/availability-rules`, { headers: auth });
      const finalIds = ((await res.json()) as { rules: { id: string }[] }).rules.map((r) => r.id).sort();
      expect(finalIds).toEqual(all);
    } finally {
      await d.close();
    }
  }, 120_000);
});
