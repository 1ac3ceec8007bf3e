/**
 * The owner's events and manual busy blocks around the shown week (dates ±3 days): from the device
 * database once it has synced (live through replication), from REST until then
 * (`GET /api/me/calendar/events`, spec §4, and `GET /api/me/blocks`, issue 25 — so a device that
 * has not pulled yet still shows the blocks made elsewhere, plus its own not yet sent, e.g. a tray
 * "Busy for …" carried out while it opened), cached for CACHE_FRESHNESS_MS and refreshed every
 * DASHBOARD_EVENTS_REFRESH_MS, when the tab becomes visible and after a completed sync.
 */
import { useCallback, useEffect, useState } from 'react';
import { api, type BusyBlock, type CalendarEvent } from '@avail/shared/api/api-client.ts';
import { CACHE_FRESHNESS_MS, DASHBOARD_EVENTS_REFRESH_MS } from '@avail/shared/constants.ts';
import { deleteBlockLocal } from '@avail/shared/rx/local-writes.ts';
import { registerReset, registerStaleOnSync, SYNC_COMPLETED_EVENT } from '../../data/data-store.ts';
import { useLocalBlocks, useLocalData, useLocalEvents, type BlockView } from '../../data/local-data.tsx';

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
 * The week's busy blocks before the device's first pull: the server's, plus the device's own not
 * yet acknowledged (a block added here, offline or while the database opened), by start. Pure.
 */
export function blocksBeforeFirstPull(rest: readonly BusyBlock[], device: readonly BlockView[] | undefined): BlockView[] {
  const out: BlockView[] = rest.map((b) => ({ id: b.id, start_ms: b.start_ms, end_ms: b.end_ms, note: b.note ?? null, pending: false }));
  const known = new Set(out.map((b) => b.id));
  for (const b of device ?? []) if (b.pending && !known.has(b.id)) out.push(b);
  return out.sort((a, b) => a.start_ms - b.start_ms || a.end_ms - b.end_ms);
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
 * Errors leave the week empty.
 */
export function useWeekEvents(startDate: string, endDate: string, onTick: (nowMs: number) => void): WeekEvents {
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

  const deviceHas = (b: BlockView) => Boolean(deviceBlocks?.some((d) => d.id === b.id));
  const removeBlock = (b: BlockView) => {
    if (local.data && (fromDevice || deviceHas(b))) {
      deleteBlockLocal(local.data.db, local.data.deviceId, b.id).catch((e: unknown) => console.error('The busy block could not be removed', (e as Error)?.message));
      return;
    }
    // A block known only from the server (before the first pull): removed there.
    api.deleteBlock(b.id).then(
      () => refresh(true),
      (e: unknown) => console.error('The busy block could not be removed', (e as Error)?.message),
    );
  };

  const busyBlocks = fromDevice ? (deviceBlocks ?? NO_BLOCKS) : blocksBeforeFirstPull(restBlocks, deviceBlocks);
  return { events: fromDevice && localEvents ? localEvents : restEvents, busyBlocks, loading, refresh, removeBlock };
}
