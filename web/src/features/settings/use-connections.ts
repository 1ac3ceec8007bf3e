/**
 * The owner's calendar connections for Settings → My Calendars: from the device database once it
 * has synced (live: the server pushes changes), from REST (`GET /api/me/calendar/connections`,
 * spec §4) until then.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, serverMessage } from '@avail/shared/api/api-client.ts';
import { invalidate } from '../../data/data-store.ts';
import { useLocalConnections, useLocalData, type ConnectionView } from '../../data/local-data.tsx';

export interface ConnectionsState {
  /** The connections, or null while the first answer is loading. */
  connections: ConnectionView[] | null;
  /** True when the list comes from the device database (REST errors are then not shown). */
  fromDevice: boolean;
  /** The REST list's failure text, or ''. */
  loadError: string;
  /** Fetches the list again: a pull of the device database, or a REST call before it has synced. */
  refresh(): Promise<void>;
  /** The latest `refresh`, for callbacks that outlive a render (the OAuth popup). */
  refreshRef: { current: () => Promise<void> };
}

/** See the module doc. A failed REST call keeps the list shown (or an empty one) and sets `loadError`. */
export function useConnections(): ConnectionsState {
  const local = useLocalData();
  const localConns = useLocalConnections(local.data, local.synced);
  const fromDevice = Boolean(local.data && local.synced && localConns);
  const replication = local.data?.replication;
  const [restConnections, setConnections] = useState<ConnectionView[] | null>(null);
  const [loadError, setLoadError] = useState('');

  const refresh = useCallback(async () => {
    invalidate('connections');
    if (fromDevice && replication) {
      replication.reconnect(); // pulls the change at once (the stream brings it too)
      return;
    }
    try {
      const { connections: list } = await api.connections();
      setConnections(list ?? []);
      setLoadError('');
      invalidate('connections');
    } catch (e) {
      setConnections((c) => c ?? []);
      setLoadError(serverMessage(e) ?? 'Failed to load calendar connections');
    }
  }, [fromDevice, replication]);
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  const loadedOnce = useRef(false);
  useEffect(() => {
    if (fromDevice || loadedOnce.current) return;
    loadedOnce.current = true;
    void refresh();
  }, [refresh, fromDevice]);

  return { connections: fromDevice ? (localConns ?? null) : restConnections, fromDevice, loadError, refresh, refreshRef };
}
