/**
 * A simulated device for replication tests: an RxDB database on the Dexie storage over
 * fake-indexeddb (not a memory stand-in), replicating with a real server over HTTP through the
 * shared replication client, with a network switch to go offline.
 *
 * RxDB's free tier allows 13 open collections per process (6 per device): keep at most two
 * devices open at once and always `close()` them.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { createAvailDatabase, deviceIdOf, type AvailDatabase } from '@avail/shared/rx/avail-database.ts';
import { attachClock } from '@avail/shared/rx/clock-store.ts';
import type { HybridClock } from '@avail/shared/rx/hlc.ts';
import { createTestApp, type TestApp, type TestAppOptions } from '../test-app.ts';
import { startReplication, type AvailReplication } from '@avail/shared/rx/replication-client.ts';

export interface Device {
  db: AvailDatabase;
  deviceId: string;
  replication: AvailReplication;
  /** Offline: every request fails like a dropped network and open requests (the stream) are cut. */
  setOffline(offline: boolean): void;
  /** Number of HTTP requests sent, by path prefix ('/api/replication/availability_rules/push' …). */
  requests: string[];
  /** Stops replicating; deletes the database, or with `keep` only closes it (an app quitting: reopen by `name`). */
  close(opts?: { keep?: boolean }): Promise<void>;
}

let seq = 0;

/** Opens a device for `token` against `baseUrl` and starts replicating at once. */
export async function openDevice(
  baseUrl: string,
  token: string,
  opts: {
    name?: string;
    deviceId?: string;
    retryTime?: number;
    onRequest?: (path: string) => void;
    /** This device's conflict clock (e.g. a skewed wall clock), restored from and kept in its database. */
    clock?: HybridClock;
    /** Opens without network (an app started offline). */
    offline?: boolean;
    /** Requests whose answer is lost after the server handled them (the device sees a network error). */
    loseAnswer?: (path: string) => boolean;
    /** The replication client's 401 hook (the session ended), with the answer's code and error. */
    onUnauthorized?: (answer: { code?: string; error?: string }) => void;
  } = {},
): Promise<Device> {
  seq += 1;
  const db = await createAvailDatabase({
    storage: getRxStorageDexie({ indexedDB, IDBKeyRange }),
    userId: 'test',
    name: opts.name ?? `device-${process.pid}-${seq}-${Math.random().toString(36).slice(2, 8)}`,
    multiInstance: false,
  });
  if (opts.deviceId) await db.upsertLocal('device', { id: opts.deviceId });
  const detachClock = opts.clock ? await attachClock(db, opts.clock) : () => undefined;
  const deviceId = await deviceIdOf(db);
  let offline = opts.offline ?? false;
  const open = new Set<AbortController>();
  const requests: string[] = [];
  const netFetch: typeof fetch = async (input, init = {}) => {
    if (offline) throw new TypeError('fetch failed');
    const ac = new AbortController();
    init.signal?.addEventListener('abort', () => ac.abort(init.signal?.reason));
    open.add(ac);
    const reqPath = new URL(String(input)).pathname;
    requests.push(reqPath);
    opts.onRequest?.(reqPath);
    try {
      const res = await fetch(input, { ...init, signal: ac.signal });
      if (opts.loseAnswer?.(reqPath)) {
        await res.arrayBuffer().catch(() => undefined); // the server finished its work
        throw new TypeError('fetch failed');
      }
      return res;
    } catch (err) {
      open.delete(ac);
      throw offline ? new TypeError('fetch failed') : err;
    }
  };
  const replication = startReplication({ db, baseUrl, getToken: () => token, fetch: netFetch, retryTime: opts.retryTime ?? 100, onUnauthorized: opts.onUnauthorized });
  return {
    db,
    deviceId,
    replication,
    requests,
    setOffline(value) {
      offline = value;
      if (value) {
        for (const ac of open) ac.abort(new TypeError('fetch failed'));
        open.clear();
      } else {
        replication.reconnect();
      }
    },
    async close(closeOpts = {}) {
      await replication.cancel();
      detachClock();
      if (closeOpts.keep) await db.close();
      else await db.remove();
    },
  };
}

/** Polls `check` every 20 ms until it returns true or `timeoutMs` passes; returns the ms it took. */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 5000, what = 'condition'): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await check()) return performance.now() - start;
    if (performance.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A test app listening on a free port of 127.0.0.1 (devices talk real HTTP to it). */
export interface ListeningApp {
  t: TestApp;
  baseUrl: string;
  /** Cuts open connections (the devices' streams), stops listening and closes the app. */
  close(): Promise<void>;
}

/** Starts `createTestApp(options)` listening on a free port. */
export async function listenTestApp(options?: TestAppOptions): Promise<ListeningApp> {
  const t = await createTestApp(options);
  const server: Server = t.app.listen(0);
  await new Promise((r) => server.once('listening', r));
  return {
    t,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await t.close();
    },
  };
}
