/**
 * A tiny client cache for the owner's data areas (spec §4 "Data loading"): entries are fresh for
 * 5 minutes, can be forced, and are all dropped on logout. Plus the once-only preload state.
 */
import { CACHE_FRESHNESS_MS } from '@avail/shared/constants.ts';

interface Entry {
  value?: unknown;
  at: number;
  pending?: Promise<unknown>;
}
const entries = new Map<string, Entry>();
const listeners = new Set<() => void>();

export function subscribeStore(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
function emit() {
  for (const fn of listeners) fn();
}

/** Returns the cached value when fresh, otherwise (or when forced) fetches it. */
export function load<T>(key: string, fetcher: () => Promise<T>, force = false): Promise<T> {
  const e = entries.get(key);
  if (!force && e && e.value !== undefined && Date.now() - e.at < CACHE_FRESHNESS_MS) return Promise.resolve(e.value as T);
  if (!force && e?.pending) return e.pending as Promise<T>;
  const pending = fetcher().then(
    (value) => {
      entries.set(key, { value, at: Date.now() });
      emit();
      return value;
    },
    (err) => {
      const cur = entries.get(key);
      if (cur?.pending === pending) entries.set(key, { value: cur.value, at: cur.at });
      throw err;
    },
  );
  entries.set(key, { value: e?.value, at: e?.at ?? 0, pending });
  return pending;
}

export function peek<T>(key: string): T | undefined {
  return entries.get(key)?.value as T | undefined;
}

/** Marks an area stale so the next load refetches it. */
export function invalidate(key: string): void {
  const e = entries.get(key);
  if (e) entries.set(key, { value: e.value, at: 0 });
}

/** Dispatched on window when Settings' Sync Now completes (spec §4 "Dashboard calendar"). */
export const SYNC_COMPLETED_EVENT = 'calendar-sync-completed';
const staleOnSync = new Set<() => void>();
let listeningForSync = false;
function listenForSync(): void {
  if (listeningForSync || typeof window === 'undefined') return;
  window.addEventListener(SYNC_COMPLETED_EVENT, markCalendarDataStale);
  listeningForSync = true;
}
/**
 * A sync changes the owner's events: the calendar caches and the dashboard stats (this week's
 * event count) become stale, so the next screen that reads them refetches — even a screen that was
 * not mounted when the event fired (T-23).
 */
export function markCalendarDataStale(): void {
  invalidate('dashboard');
  for (const fn of staleOnSync) fn();
}
/** Lets a feature-level calendar cache be marked stale on every sync-completed event. */
export function registerStaleOnSync(fn: () => void): void {
  staleOnSync.add(fn);
  listenForSync();
}
listenForSync();

export interface PreloadState {
  isInitializing: boolean;
  hasInitialized: boolean;
  lastInitialized: number | null;
  error: unknown;
}
export const preloadState: PreloadState = { isInitializing: false, hasInitialized: false, lastInitialized: null, error: null };

/**
 * Loads the data areas once after authentication, in parallel, forced; one failure spares the
 * others. A failure is logged (console.error) and rethrown once every area has settled (spec §8).
 */
export async function preloadOnce(areas: Record<string, () => Promise<unknown>>): Promise<void> {
  if (preloadState.hasInitialized || preloadState.isInitializing) return;
  preloadState.isInitializing = true;
  // Forced: never served from the cache. A request a screen has already started for an area is
  // itself a fresh fetch, so it is shared rather than sent twice (each area fires once, T-14).
  const results = await Promise.allSettled(Object.entries(areas).map(([key, f]) => entries.get(key)?.pending ?? load(key, f, true)));
  preloadState.isInitializing = false;
  preloadState.hasInitialized = true;
  preloadState.lastInitialized = Date.now();
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  preloadState.error = failed[0]?.reason ?? null;
  for (const f of failed) console.error('Preload failed', f.reason);
  if (failed.length) throw failed[0].reason;
}

const resetters = new Set<() => void>();
/** Lets a feature-level cache be dropped on logout too. */
export function registerReset(fn: () => void): void {
  resetters.add(fn);
}

/** Drops every cached area and the once-only preload flags (logout). */
export function resetStores(): void {
  entries.clear();
  for (const fn of resetters) fn();
  preloadState.isInitializing = false;
  preloadState.hasInitialized = false;
  preloadState.lastInitialized = null;
  preloadState.error = null;
  emit();
}
