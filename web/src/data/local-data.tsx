/**
 * React side of the owner's device database (issue 3): opens it for the signed-in, verified user
 * through a dynamic `import('./local-db.ts')` (so RxDB and Dexie load only on the owner's screens),
 * and offers reactive hooks over its collections. Every hook re-renders when its documents change —
 * a local write, or a change the server pushed on the replication stream.
 *
 * Until the database has finished its first full pull (`synced`), or when it cannot open (no
 * IndexedDB), screens read the REST areas instead (the hooks return `undefined` and the screens
 * keep their `useStore` reads), so a fresh sign-in never flashes an empty schedule and the app
 * works against a server without replication.
 *
 * This module imports RxDB types only; it must stay free of run-time RxDB imports.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { RxQuery } from 'rxdb';
import type { AvailabilityRule, CalendarConnection, CalendarEvent, CalendarProvider } from '@avail/shared/api/api-client.ts';
import type { AvailDatabase } from '@avail/shared/rx/avail-database.ts';
import type { SyncStatus } from '@avail/shared/rx/replication-client.ts';
import type { BlockDoc, ConnectionDoc, EventDoc, ExceptionDoc, RuleDoc } from '@avail/shared/rx/rx-schemas.ts';
import { registerReset } from './data-store.ts';
import type { LocalData } from './local-db.ts';
import { useSession } from './session.tsx';

interface LocalState {
  userId: string | null;
  data: LocalData | null;
  error: unknown;
}
let state: LocalState = { userId: null, data: null, error: null };
const subscribers = new Set<() => void>();
function setState(next: LocalState) {
  state = next;
  for (const fn of subscribers) fn();
}
function subscribe(fn: () => void) {
  subscribers.add(fn);
  return () => subscribers.delete(fn);
}
// Logout (resetStores) forgets the handle; session.tsx closes and deletes the database itself.
registerReset(() => setState({ userId: null, data: null, error: null }));

function ensureOpen(userId: string, onUnauthorized: (answer: { code?: string; error?: string }) => void): void {
  if (state.userId === userId) return;
  setState({ userId, data: null, error: null });
  import('./local-db.ts')
    .then(async (m) => {
      m.setUnauthorizedHandler(onUnauthorized);
      return m.openLocalData(userId);
    })
    .then(
      (data) => {
        if (state.userId === userId) setState({ userId, data, error: null });
      },
      (error: unknown) => {
        console.error('The local database could not be opened; reading from the server instead', error);
        if (state.userId === userId) setState({ userId, data: null, error });
      },
    );
}

/** The open database of the signed-in, verified owner (null while opening, signed out or unavailable). */
export function useLocalData(): { data: LocalData | null; synced: boolean; failed: boolean } {
  const { user, sessionEnded } = useSession();
  const userId = user?.email_verified_at ? String(user.id) : null;
  useEffect(() => {
    // A 401 of the replication: the session expired or was ended elsewhere — sign out with a notice.
    if (userId) ensureOpen(userId, sessionEnded);
  }, [userId, sessionEnded]);
  const s = useSyncExternalStore(subscribe, () => state);
  const data = s.userId === userId ? s.data : null;
  const synced = useBehavior(data?.synced$, false);
  return { data, synced, failed: s.userId === userId && Boolean(s.error) };
}

interface Subscribable<T> {
  subscribe(fn: (v: T) => void): { unsubscribe(): void };
}
/** Latest value of an observable (`initial` until it emits or when absent). */
function useObservable<T>(source: Subscribable<T> | null | undefined, initial: T): T {
  const [value, setValue] = useState<{ source: unknown; v: T }>({ source, v: initial });
  useEffect(() => {
    if (!source) return;
    const sub = source.subscribe((v) => setValue({ source, v }));
    return () => sub.unsubscribe();
  }, [source]);
  return value.source === source ? value.v : initial;
}
function useBehavior(source: (Subscribable<boolean> & { value: boolean }) | undefined, fallback: boolean): boolean {
  const v = useObservable(source, source?.value ?? fallback);
  return source ? v : fallback;
}

/**
 * Documents of a reactive RxDB query as plain JSON, re-emitted on every change; `undefined` until
 * the first result (or when `make` returns null). `deps` are the query's inputs.
 */
export function useRxQuery<T>(db: AvailDatabase | null | undefined, make: (db: AvailDatabase) => RxQuery<any, any[]> | null, deps: unknown[]): T[] | undefined {
  const [result, setResult] = useState<{ key: unknown[]; docs: T[] } | null>(null);
  const key = [db, ...deps];
  useEffect(() => {
    if (!db) return;
    const query = make(db);
    if (!query) return;
    const sub = query.$.subscribe((docs: Array<{ toJSON(): unknown }>) => setResult({ key, docs: docs.map((d) => d.toJSON() as T) }));
    return () => sub.unsubscribe();
    // `key` lists db and deps; `make` is an inline closure over them.
  }, key);
  return result && result.key.length === key.length && result.key.every((k, i) => Object.is(k, key[i])) ? result.docs : undefined;
}

/** Keys `collection/id` of local writes the server has not acknowledged ([] without a database). */
export function usePendingKeys(data: LocalData | null): string[] {
  return useObservable(data?.replication.pending$, EMPTY);
}
const EMPTY: string[] = [];

function useOnline(): boolean {
  return useSyncExternalStore(
    (fn) => {
      window.addEventListener('online', fn);
      window.addEventListener('offline', fn);
      return () => {
        window.removeEventListener('online', fn);
        window.removeEventListener('offline', fn);
      };
    },
    () => navigator.onLine,
  );
}

/**
 * The device's sync status for the header: the replication's own status, 'offline' whenever the
 * browser says so, 'syncing' while the database opens and until its first full pull, 'online'
 * when it cannot open (REST only).
 */
export function useSyncStatus(): SyncStatus {
  const { data, synced, failed } = useLocalData();
  const online = useOnline();
  const status = useObservable<SyncStatus>(data?.replication.status$, 'syncing');
  if (status === 'outdated' || status === 'unauthorized') return status;
  if (!online) return 'offline';
  if (failed) return 'online'; // no device database (IndexedDB unavailable): the screens read REST
  // Until the first full pull the replication may not even have started (leader election), so
  // its own 'online' would be premature.
  return data && synced ? status : 'syncing';
}

/** Label of a sync status, as shown in the header. */
export const SYNC_STATUS_LABEL: Record<SyncStatus, string> = {
  online: 'Online',
  syncing: 'Syncing…',
  offline: 'Offline',
  outdated: 'Update required',
  unauthorized: 'Signed out',
};

function byDayAndStart(a: { weekday: number; start_time_local: string }, b: { weekday: number; start_time_local: string }) {
  return a.weekday - b.weekday || a.start_time_local.localeCompare(b.start_time_local);
}

/** A weekly rule as the screens show it: the REST shape plus, from the device, its id and pending flag. */
export type RuleView = AvailabilityRule & { pending?: boolean };

/** The weekly rules from the device, sorted by weekday then start (undefined while loading). */
export function useLocalRules(data: LocalData | null, synced: boolean): RuleView[] | undefined {
  const pending = usePendingKeys(data);
  const docs = useRxQuery<RuleDoc>(data?.db, (db) => (synced ? db.availability_rules.find() : null), [synced]);
  if (!docs) return undefined;
  return docs
    .map((d) => ({
      id: d.id,
      weekday: d.weekday,
      start_time_local: d.start_time_local,
      end_time_local: d.end_time_local,
      pending: pending.includes(`availability_rules/${d.id}`),
    }))
    .sort(byDayAndStart);
}

/** The date exceptions from the device, sorted by date (undefined while loading). */
export function useLocalExceptions(data: LocalData | null, synced: boolean): ExceptionDoc[] | undefined {
  const docs = useRxQuery<ExceptionDoc>(data?.db, (db) => (synced ? db.availability_exceptions.find() : null), [synced]);
  return docs ? [...docs].sort((a, b) => a.date.localeCompare(b.date)) : undefined;
}

/** A connection as the screens show it: the REST shape plus the provider account (e-mail, user name or host). */
export type ConnectionView = CalendarConnection & { account?: string | null };

/** A connection document in the REST shape (`*_at` as ISO strings). */
export function connectionFromDoc(d: ConnectionDoc): ConnectionView {
  return {
    id: d.id,
    provider: d.provider as CalendarProvider,
    name: d.name,
    status: d.status,
    account: d.account,
    connected_at: new Date(d.connected_at).toISOString(),
    calendars_count: d.calendars_count,
    included_calendars_count: d.included_calendars_count,
    last_synced_at: d.last_synced_at === null ? null : new Date(d.last_synced_at).toISOString(),
    last_error: d.last_error,
    warnings: d.warnings,
  };
}

/** The calendar connections from the device, oldest first (undefined while loading). */
export function useLocalConnections(data: LocalData | null, synced: boolean): ConnectionView[] | undefined {
  const docs = useRxQuery<ConnectionDoc>(data?.db, (db) => (synced ? db.calendar_connections.find() : null), [synced]);
  return docs ? [...docs].sort((a, b) => a.connected_at - b.connected_at || a.id.localeCompare(b.id)).map(connectionFromDoc) : undefined;
}

/** An event document in the REST shape (`start`/`end` as ISO instants). */
export function eventFromDoc(d: EventDoc, providerOf: (connectionId: string) => string = () => ''): CalendarEvent {
  return {
    id: d.id,
    title: d.title,
    start: new Date(d.start_ms).toISOString(),
    end: new Date(d.end_ms).toISOString(),
    all_day: d.all_day,
    provider: providerOf(d.connection_id),
  };
}

/**
 * The owner's events overlapping [startMs, endMs) (UTC epoch ms) from the device, by start
 * (undefined while loading). Uses the `start_ms` index.
 */
export function useLocalEvents(data: LocalData | null, synced: boolean, startMs: number, endMs: number): CalendarEvent[] | undefined {
  const docs = useRxQuery<EventDoc>(
    data?.db,
    (db) => (synced ? db.calendar_events.find({ selector: { start_ms: { $lt: endMs }, end_ms: { $gt: startMs } }, sort: [{ start_ms: 'asc' }] }) : null),
    [synced, startMs, endMs],
  );
  return docs?.map((d) => eventFromDoc(d));
}

/** A manual busy block as the screens show it: UTC epoch ms, the owner's note, and whether the server has it yet. */
export interface BlockView {
  id: string;
  start_ms: number;
  end_ms: number;
  note: string | null;
  /** true until the server has acknowledged it. */
  pending: boolean;
}

/**
 * The owner's live busy blocks overlapping [startMs, endMs) (UTC epoch ms) from the device, by
 * start (undefined while loading or without a device database).
 */
export function useLocalBlocks(data: LocalData | null, synced: boolean, startMs: number, endMs: number): BlockView[] | undefined {
  const pending = usePendingKeys(data);
  const docs = useRxQuery<BlockDoc>(
    data?.db,
    (db) => (synced ? db.busy_blocks.find({ selector: { start_ms: { $lt: endMs }, end_ms: { $gt: startMs } }, sort: [{ start_ms: 'asc' }] }) : null),
    [synced, startMs, endMs],
  );
  return docs?.map((d) => ({ id: d.id, start_ms: d.start_ms, end_ms: d.end_ms, note: d.note ?? null, pending: pending.includes(`busy_blocks/${d.id}`) }));
}
