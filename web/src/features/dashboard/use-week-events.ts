/**
 * The owner's events and manual busy blocks around the shown week (dates ±3 days): from the device
 * database once it has synced (live through replication), from REST until then
 * (`GET /api/me/calendar/events`, spec §4, and `GET /api/me/blocks`, issue 25 — so a device that
 * has not pulled yet still shows the blocks made elsewhere, merged with its own — the device's copy
 * wins, its deletions not yet sent hide the server's copy — e.g. a tray "Busy for …" carried out
 * while it opened), cached for CACHE_FRESHNESS_MS and refreshed every
 * DASHBOARD_EVENTS_REFRESH_MS, when the tab becomes visible, after a completed sync and (before
 * the first pull) after a block edit of this device was pushed. A failed removal is shown to the
 * owner as an error alert.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, type BusyBlock, type CalendarEvent } from '@avail/shared/api/api-client.ts';
import { CACHE_FRESHNESS_MS, DASHBOARD_EVENTS_REFRESH_MS } from '@avail/shared/constants.ts';
import { deleteBlockLocal } from '@avail/shared/rx/local-writes.ts';
import { registerReset, registerStaleOnSync, SYNC_COMPLETED_EVENT } from '../../data/data-store.ts';
import { useLocalBlocks, useLocalData, useLocalEvents, usePendingKeys, type BlockView } from '../../data/local-data.tsx';

const DAY_MS = 86_400_000;

interface EventsCache {
  key: string;
  at: number;
  events: CalendarEvent[];
  /** The busy blocks REST answered for the same range (null when it could not). */
  blocks: BusyBlock[] | null;
}
let eventsCache: EventsCache | null = null;
registerReset(() => {
  eventsCache = null;
});
// A completed sync makes the cached week stale even while the dashboard is not mounted (T-23).
registerStaleOnSync(() => {
  if (eventsCache) eventsCache = { ...eventsCache, at: 0 };
});

const NO_BLOCKS: BlockView[] = [];

/**
 * The week's busy blocks before the device's first pull: the server's and the device's merged by
 * id, the device's copy winning (pending or not: it is the newer edit, or the same one), without
 * the ids the device has deleted and not yet sent (`deleted`), by start. Pure.
 */
export function blocksBeforeFirstPull(rest: readonly BusyBlock[], device: readonly BlockView[] | undefined, deleted: ReadonlySet<string> = new Set()): BlockView[] {
  const byId = new Map<string, BlockView>();
  for (const b of rest) if (!deleted.has(b.id)) byId.set(b.id, { id: b.id, start_ms: b.start_ms, end_ms: b.end_ms, note: b.note ?? null, pending: false });
  for (const b of device ?? []) if (!deleted.has(b.id)) byId.set(b.id, b);
  return [...byId.values()].sort((a, b) => a.start_ms - b.start_ms || a.end_ms - b.end_ms);
}

/**
 * The busy-block ids with a local write not yet sent that the device no longer holds live: its
 * deletions waiting to be pushed. `pendingKeys`: the replication's `busy_blocks/<id>` style keys;
 * `live`: the device's live blocks. Pure.
 */
export function pendingDeletedBlockIds(pendingKeys: readonly string[], live: readonly BlockView[] | undefined): Set<string> {
  const liveIds = new Set((live ?? []).map((b) => b.id));
  const out = new Set<string>();
  for (const key of pendingKeys) {
    if (!key.startsWith('busy_blocks/')) continue;
    const id = key.slice('busy_blocks/'.length);
    if (!liveIds.has(id)) out.add(id);
  }
  return out;
}

/** true when a busy-block write waiting in `before` is no longer waiting in `after` (it was pushed). Pure. */
export function blockWriteSent(before: readonly string[], after: readonly string[]): boolean {
  const now = new Set(after);
  return before.some((k) => k.startsWith('busy_blocks/') && !now.has(k));
}

/** What removing a block needs: the device's deletion or the server's, and where a failure is told. */
export interface RemoveBlockDeps {
  /** Deletes it on the device (replicated later); null when the device does not hold it. */
  deleteOnDevice: ((id: string) => Promise<unknown>) | null;
  deleteOnServer(id: string): Promise<unknown>;
  /** Runs after a removal through the server (the week is fetched again). */
  afterServerDelete(): void;
  /** Shows the owner why it failed (the dashboard's error alert). */
  onError(message: string): void;
}

/** The text of a failed removal: `The busy block could not be removed: <reason>`. */
function removeFailedText(e: unknown): string {
  const reason = (e as Error)?.message;
  return `The busy block could not be removed${reason ? `: ${reason}` : '.'}`;
}

/** Removes block `id` on the device when it holds it, else through the server; a failure is shown, never thrown. */
export async function removeWeekBlock(id: string, deps: RemoveBlockDeps): Promise<void> {
  try {
    if (deps.deleteOnDevice) {
      await deps.deleteOnDevice(id);
      return;
    }
    await deps.deleteOnServer(id);
    deps.afterServerDelete();
  } catch (e) {
    console.error('The busy block could not be removed', (e as Error)?.message);
    deps.onError(removeFailedText(e));
  }
}

export interface WeekEvents {
  events: CalendarEvent[];
  busyBlocks: BlockView[];
  /** A REST fetch is under way. */
  loading: boolean;
  /** Fetches again (`force`: past the cache; on the device database: asks replication to re-sync). */
  refresh(force: boolean): Promise<void>;
  /** Removes a manual busy block on this device (replicated later). */
  removeBlock(block: BlockView): void;
}

/**
 * See the module doc. `startDate`/`endDate`: YYYY-MM-DD, inclusive; `onTick(nowMs)` runs with each
 * periodic refresh (the caller's clock, which picks the dates; must be stable, e.g. a state setter).
 * Errors leave the week empty; a failed removal is told through `onError` (stable, e.g. an alert's `show`).
 */
export function useWeekEvents(startDate: string, endDate: string, onTick: (nowMs: number) => void, onError: (message: string) => void = () => undefined): WeekEvents {
  const rangeKey = `${startDate}..${endDate}`;
  const [restEvents, setEvents] = useState<CalendarEvent[]>(() => (eventsCache?.key === rangeKey ? eventsCache.events : []));
  const [restBlocks, setRestBlocks] = useState<BusyBlock[]>(() => (eventsCache?.key === rangeKey ? (eventsCache.blocks ?? []) : []));
  const [loading, setLoading] = useState(false);
  // A day of margin on both ends covers any zone offset; the grid places events by owner-local date.
  const local = useLocalData();
  const fromDevice = Boolean(local.data && local.synced);
  const from = Date.parse(`${startDate}T00:00:00Z`) - DAY_MS;
  const to = Date.parse(`${endDate}T00:00:00Z`) + 2 * DAY_MS;
  const localEvents = useLocalEvents(local.data, local.synced, from, to);
  // Read from the device as soon as it is open: before the first pull only its pending blocks count.
  const deviceBlocks = useLocalBlocks(local.data, Boolean(local.data), from, to);
  const replication = local.data?.replication;
  const pendingKeys = usePendingKeys(local.data);

  const refresh = useCallback(
    async (force: boolean) => {
      if (replication && fromDevice) {
        // The device database is live (replication stream); a refresh asks it to re-sync now.
        if (force) replication.reconnect();
        return;
      }
      const c = eventsCache;
      if (!force && c && c.key === rangeKey && (c.events.length || c.blocks?.length) && Date.now() - c.at < CACHE_FRESHNESS_MS) {
        setEvents(c.events);
        setRestBlocks(c.blocks ?? []);
        return;
      }
      setLoading(true);
      // A server without the blocks route (or a failure of that call alone) leaves the events shown.
      const blocksCall = api.blocks(from, to).then(
        (r) => r.blocks ?? [],
        () => null,
      );
      try {
        const [{ events: list }, blocks] = await Promise.all([api.events(startDate, endDate), blocksCall]);
        eventsCache = { key: rangeKey, at: Date.now(), events: list ?? [], blocks };
        setEvents(list ?? []);
        setRestBlocks(blocks ?? []);
      } catch {
        setEvents([]);
        setRestBlocks((await blocksCall) ?? []);
      } finally {
        setLoading(false);
      }
    },
    [rangeKey, startDate, endDate, from, to, replication, fromDevice],
  );

  useEffect(() => {
    void refresh(false);
  }, [refresh]);

  useEffect(() => {
    const tick = setInterval(() => {
      onTick(Date.now());
      void refresh(true);
    }, DASHBOARD_EVENTS_REFRESH_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh(true);
    };
    const onSynced = () => void refresh(true);
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener(SYNC_COMPLETED_EVENT, onSynced);
    return () => {
      clearInterval(tick);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener(SYNC_COMPLETED_EVENT, onSynced);
    };
  }, [refresh, onTick]);

  // Before the first pull the server's copy is fetched again once a block edit of this device was
  // pushed (so a block deleted here does not come back from a stale REST answer).
  const lastPending = useRef<readonly string[]>(pendingKeys);
  useEffect(() => {
    const sent = blockWriteSent(lastPending.current, pendingKeys);
    lastPending.current = pendingKeys;
    if (sent && !fromDevice) void refresh(true);
  }, [pendingKeys, fromDevice, refresh]);

  const deviceHas = (b: BlockView) => Boolean(deviceBlocks?.some((d) => d.id === b.id));
  const removeBlock = (b: BlockView) => {
    const data = local.data;
    void removeWeekBlock(b.id, {
      // A block known only from the server (before the first pull) is removed there.
      deleteOnDevice: data && (fromDevice || deviceHas(b)) ? (id) => deleteBlockLocal(data.db, data.deviceId, id) : null,
      deleteOnServer: (id) => api.deleteBlock(id),
      afterServerDelete: () => void refresh(true),
      onError,
    });
  };

  const deleted = useMemo(() => pendingDeletedBlockIds(pendingKeys, deviceBlocks), [pendingKeys, deviceBlocks]);
  const busyBlocks = fromDevice ? (deviceBlocks ?? NO_BLOCKS) : blocksBeforeFirstPull(restBlocks, deviceBlocks, deleted);
  return { events: fromDevice && localEvents ? localEvents : restEvents, busyBlocks, loading, refresh, removeBlock };
}
