/**
 * Replication (RxDB with the Dexie storage on fake-indexeddb, real server over HTTP in this
 * process): initial pull of 10,000 documents to a new device (1 round, to stay in the 5-minute budget); time from reconnecting
 * after an offline edit to the edit being stored on the server (5 edits, at most 30 s). RxDB's console banner
 * (the "Open Core RxStorage" notice) is filtered out of the output.
 */
import type { AddressInfo } from 'node:net';
import { replaceRulesLocal } from '@avail/shared/rx/local-writes.ts';
import { createTestApp } from '../../server/test/test-app.ts';
import { buildUser } from '../../server/test/factories.ts';
import { openDevice, waitFor } from '../../server/test/replication/rx-device.ts';
import { stats, type Log } from './util.ts';

/** Drops RxDB's banners (console.warn blocks starting with `-------------- RxDB`). Returns the restore function. */
export function silenceRxdbBanner(): () => void {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('-------------- RxDB')) return;
    warn(...args);
  };
  return () => {
    console.warn = warn;
  };
}

export async function runReplicationBench(log: Log): Promise<Record<string, unknown>> {
  const restore = silenceRxdbBanner();
  const t = await createTestApp();
  const server = t.app.listen(0);
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const out: Record<string, unknown> = {};
  try {
    const owner = await buildUser(t);
    const now = Date.now();
    const connId = crypto.randomUUID();
    await t.db
      .insertInto('calendar_connections')
      .values({ id: connId, user_id: owner.user.id, provider: 'ics', name: 'Bench', status: 'active', account: null, connected_at: now, updated_at: now, next_sync_at: now + 30 * 86_400_000 })
      .execute();
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      id: `bench-ev-${i}`, user_id: owner.user.id, connection_id: connId, uid: `bench-${i}@avail`, title: `Meeting ${i}`,
      start_ms: now + i * 3_600_000, end_ms: now + i * 3_600_000 + 1_800_000, all_day: 0, is_busy: 1, depends_on_owner_zone: 0, updated_at: now + i,
    }));
    for (let i = 0; i < rows.length; i += 500) await t.db.insertInto('calendar_events').values(rows.slice(i, i + 500)).execute();
    const pulls: number[] = [];
    for (let i = 0; i < 1; i++) {
      const t0 = performance.now();
      const d = await openDevice(base, owner.token);
      await d.replication.states.calendar_events.awaitInitialReplication();
      pulls.push(performance.now() - t0);
      const n = await d.db.calendar_events.count().exec();
      await d.close();
      if (n !== 10_000) throw new Error(`initial pull brought ${n} events`);
      log(`replication: initial pull of 10,000 documents #${i + 1}: ${Math.round(pulls.at(-1)!)} ms`);
    }
    out.replication_initial_pull_10000_docs = stats(pulls);

    // In a browser RxDB retries a failed push on the window's 'online' event; in Node it waits
    // retryTime, so the number below is bounded by this retry time plus the real work.
    // The whole sub-step is bounded (30 s): on a saturated machine it records how far it got.
    // The offline edits run for another owner without the 10,000 events: after a reconnect RxDB
    // re-reads a collection's documents through IndexedDB cursors, and fake-indexeddb (the Node
    // stand-in for the browser's IndexedDB) searches its record tree on every cursor step, which
    // took ~45 s of CPU per reconnect over 10,000 documents (profiled: binarySearchTree._findRecords
    // and cmpKeys) — a cost of the stand-in, not of a browser's IndexedDB or of the replication.
    const editor = await buildUser(t);
    const retryTime = 250;
    const d = await openDevice(base, editor.token, { retryTime });
    const arrivals: number[] = [];
    const offlineEdits = async () => {
      await d.replication.awaitInSync();
      for (let i = 0; i < 5; i++) {
        d.setOffline(true);
        const end = `${String(12 + (i % 8)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`;
        await replaceRulesLocal(d.db, d.deviceId, [{ weekday: i % 7, start_time_local: '09:00', end_time_local: end }]);
        const t0 = performance.now();
        d.setOffline(false);
        await waitFor(async () => {
          const r = await t.db.selectFrom('availability_rules').select('end_time_local').where('user_id', '=', editor.user.id).where('is_deleted', '=', 0).execute();
          return r.length === 1 && r[0].end_time_local === end;
        }, 10_000, 'offline edit on the server');
        arrivals.push(performance.now() - t0);
        await d.replication.awaitInSync();
      }
    };
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`offline edits: stopped after 30 s with ${arrivals.length} of 5 measured`)), 30_000);
    });
    try {
      await Promise.race([offlineEdits(), limit]);
      out.replication_offline_edit_to_server_after_reconnect = { retry_time_ms: retryTime, ...stats(arrivals) };
      log(`replication: offline edit → server after reconnect: ${stats(arrivals).p50_ms} ms p50`);
    } catch (err) {
      out.replication_offline_edit_to_server_after_reconnect = { retry_time_ms: retryTime, error: (err as Error).message, ...(arrivals.length ? stats(arrivals) : {}) };
      log(`replication: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    await Promise.race([d.close(), new Promise((r) => setTimeout(r, 5_000))]);
  } finally {
    server.closeAllConnections();
    server.close();
    await t.close();
    restore();
  }
  return out;
}
