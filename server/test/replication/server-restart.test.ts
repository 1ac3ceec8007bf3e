/**
 * Durability of pushes: the real server runs as its own process and is killed with SIGKILL while
 * a device is pushing a batch. Every write the server acknowledged must be there after the restart,
 * and the device's unacknowledged writes must arrive once it reconnects (issue 3).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceRulesLocal, readPending } from '@avail/shared/rx/local-writes.ts';
import { buildUser } from '../factories.ts';
import { createTestDb, type TestDb } from '../test-db.ts';
import { openDevice, waitFor, type Device } from './rx-device.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let testDb: TestDb;
let port: number;
let child: ChildProcess | null = null;
const secretKey = randomBytes(32).toString('hex');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
    s.on('error', reject);
  });
}

async function startServer(): Promise<void> {
  const databaseUrl = testDb.databaseUrl ? `${testDb.databaseUrl}${testDb.databaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${testDb.location}`)}` : '';
  child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: testDb.dir,
      DATABASE_URL: databaseUrl,
      AVAIL_SECRET_KEY: secretKey,
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: path.join(testDb.dir, 'no-web-dist'),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(
    async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/api/me`)).status === 401;
      } catch {
        return false;
      }
    },
    30_000,
    'server start',
  );
}

function killServer(): Promise<void> {
  const c = child;
  child = null;
  if (!c || c.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    c.once('exit', () => resolve());
    c.kill('SIGKILL');
  });
}

beforeAll(async () => {
  testDb = await createTestDb();
  port = await freePort();
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
    const d: Device = await openDevice(`http://127.0.0.1:${port}`, token, {
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
      // 1,200 rules = 12 push batches of 100.
      const rules = Array.from({ length: 1200 }, (_, i) => ({
        weekday: i % 7,
        start_time_local: `${String(Math.floor(i / 7) % 24).padStart(2, '0')}:00`,
        end_time_local: `${String(Math.floor(i / 7) % 24).padStart(2, '0')}:30`,
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
        const res = await fetch(`http://127.0.0.1:${port}/api/me/availability-rules`, { headers: auth });
        const onServer = new Set(((await res.json()) as { rules: { id: string }[] }).rules.map((r) => r.id));
        const lost = acked.filter((id) => !onServer.has(id));
        expect(lost).toEqual([]);
        expect(acked.length).toBeLessThan(1200); // the kill really landed mid-way
      }
      killAt = null;
      d.setOffline(false);
      await waitFor(async () => Object.keys(await readPending(d.db)).length === 0, 20_000, 'all writes acknowledged');
      const res = await fetch(`http://127.0.0.1:${port}/api/me/availability-rules`, { headers: auth });
      const finalIds = ((await res.json()) as { rules: { id: string }[] }).rules.map((r) => r.id).sort();
      expect(finalIds).toEqual(all);
    } finally {
      await d.close();
    }
  }, 120_000);
});
