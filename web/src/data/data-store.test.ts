import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The store listens on `window`; give the node test runtime one before loading the module.
let store: typeof import('./data-store.ts');
beforeAll(async () => {
  vi.stubGlobal('window', new EventTarget());
  store = await import('./data-store.ts');
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe('data store (spec §4 "Data loading")', () => {
  it('reuses a fresh area and refetches when forced', async () => {
    const fetcher = vi.fn(async () => ({ n: fetcher.mock.calls.length }));
    await store.load('fresh-area', fetcher);
    await store.load('fresh-area', fetcher);
    expect(fetcher).toHaveBeenCalledTimes(1);
    await store.load('fresh-area', fetcher, true);
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('a calendar-sync-completed event marks calendar data stale with nobody mounted (T-23)', async () => {
    const stats = vi.fn(async () => ({ this_week_events: stats.mock.calls.length }));
    await store.load('dashboard', stats);
    const marker = vi.fn();
    store.registerStaleOnSync(marker);

    window.dispatchEvent(new Event(store.SYNC_COMPLETED_EVENT));

    expect(marker).toHaveBeenCalledTimes(1);
    // The dashboard stats (this week's event count) are refetched on their next read, unforced.
    await store.load('dashboard', stats);
    expect(stats).toHaveBeenCalledTimes(2);
    await store.load('dashboard', stats);
    expect(stats).toHaveBeenCalledTimes(2);
  });
});
