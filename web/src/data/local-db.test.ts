/**
 * The owner's device database lifecycle (local-db.ts) on the real Dexie storage over
 * fake-indexeddb: one database per user, reused while open, switched per user, and deleted with
 * its pending writes on logout. The network is down throughout (fetch rejects like a dropped
 * connection), so the replication only retries.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { firstValueFrom, filter } from 'rxjs';
import { AUTH_TOKEN_STORAGE_KEY } from '@avail/shared/constants.ts';
import { databaseNameFor } from '@avail/shared/rx/avail-database.ts';
import { replaceRulesLocal } from '@avail/shared/rx/local-writes.ts';

beforeAll(() => {
  // The module listens on window/document for online/focus/visibility; node has neither.
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
  vi.stubGlobal('navigator', { onLine: true });
  const store = new Map<string, string>([[AUTH_TOKEN_STORAGE_KEY, 'token-1']]);
  vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v), removeItem: (k: string) => store.delete(k) });
  vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
});
afterAll(() => vi.unstubAllGlobals());

describe('local-db', () => {
  it('opens one database per user, keeps pending writes, and deletes everything on logout', async () => {
    const { openLocalData, closeLocalData } = await import('./local-db.ts');
    const a = await openLocalData('user-1');
    expect(await openLocalData('user-1')).toBe(a);
    expect(a.db.name).toBe(databaseNameFor('user-1'));
    expect(a.synced$.value).toBe(false); // no server: the first pull never completes

    await replaceRulesLocal(a.db, a.deviceId, [{ weekday: 0, start_time_local: '09:00', end_time_local: '12:00' }]);
    const pending = await firstValueFrom(a.replication.pending$.pipe(filter((p) => p.length > 0)));
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatch(/^availability_rules\//);
    const status = await firstValueFrom(a.replication.status$.pipe(filter((s) => s === 'offline')));
    expect(status).toBe('offline');

    // Another user: the first database is closed (not deleted) before the second opens.
    const b = await openLocalData('user-2');
    expect(a.db.closed).toBe(true);
    expect(await b.db.availability_rules.count().exec()).toBe(0);
    await closeLocalData({ remove: true });
    expect(b.db.closed).toBe(true);

    // user-1's data survived the switch …
    const again = await openLocalData('user-1');
    expect(again).not.toBe(a);
    expect(await again.db.availability_rules.count().exec()).toBe(1);
    // … and logout deletes it with its pending writes.
    await closeLocalData({ remove: true });
    const fresh = await openLocalData('user-1');
    expect(await fresh.db.availability_rules.count().exec()).toBe(0);
    expect(fresh.deviceId).not.toBe(a.deviceId);
    await closeLocalData({ remove: true });
  });

  it('deletes a stored database that is not open (logout from a page that never opened it)', async () => {
    const { openLocalData, closeLocalData } = await import('./local-db.ts');
    const a = await openLocalData('user-3');
    await replaceRulesLocal(a.db, a.deviceId, [{ weekday: 1, start_time_local: '10:00', end_time_local: '11:00' }]);
    await closeLocalData({ remove: false });
    await closeLocalData({ remove: true, userId: 'user-3' });
    const b = await openLocalData('user-3');
    expect(await b.db.availability_rules.count().exec()).toBe(0);
    await closeLocalData({ remove: true });
  });
});
