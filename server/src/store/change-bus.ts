/**
 * The replication change bus: "user U's collection C changed" signals that wake the SSE stream
 * (GET /api/replication/stream, RxDB HTTP replication https://rxdb.info/replication-http.html).
 *
 * - In-process: one EventEmitter per database handle (changeBusFor(db)), so every app and job
 *   sharing a Db shares the bus and separate test databases never see each other.
 * - PostgreSQL: publish() also sends `pg_notify('avail_changes_<schema>', {i, u, c})`; while a
 *   stream is subscribed the bus holds one dedicated LISTEN connection (not from the pool), so
 *   several server instances on one database see each other's changes. Own notifications are
 *   ignored (the instance id `i`). If the LISTEN connection fails, subscribers get a `resync`.
 *
 * Writers publish AFTER their transaction committed (replicatedWrite does this), never before.
 * Signals carry no document data: the stream re-reads from its own checkpoint.
 *
 * Owner-data listeners (`subscribeOwners`, e.g. the public availability cache) hear EVERY
 * published write of any user — also writes that touched no replicated collection (busy intervals
 * re-derived by a sync or a zone change) — as `(userId)`, or `(null)` when changes may have been
 * missed (PostgreSQL LISTEN connection lost). Same-instance signals are delivered synchronously in
 * publish(), i.e. before the writer's HTTP response; other instances' via LISTEN/NOTIFY.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import pg from 'pg';
import type { CollectionName } from '@avail/shared/rx/replication-protocol.ts';
import { pgConnectionInfo, type Db, type PgConnectionInfo } from '../db/kysely.ts';

/** What a subscriber hears: collections of its user that changed, or `resync` (changes may have been missed). */
export type ChangeSignal = { collections: CollectionName[] } | { resync: true };
export type ChangeListener = (signal: ChangeSignal) => void;
/** Hears "user `userId`'s data changed" for any user; `null`: anything may have changed (resync). */
export type OwnerChangeListener = (userId: string | null) => void;

const OWNER_EVENT = 'owner-changed';

const RECONNECT_MS = 1_000;
/** pg_notify attempts per published change, and the pause before retry n (ms × n). */
const NOTIFY_ATTEMPTS = 3;
const NOTIFY_RETRY_MS = 100;

/** What the bus logs through (pino's shape). */
export interface BusLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

export class ChangeBus {
  readonly instanceId = randomUUID();
  private readonly emitter = new EventEmitter();
  private readonly channel: string | null;
  private subscribers = 0;
  private client: pg.Client | null = null;
  private listening: Promise<void> | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** The app's logger, learnt from publish() or setLogger(); LISTEN outages are logged through it. */
  private logger: BusLogger | undefined;
  /** True from a lost LISTEN connection until one is up again (the outage is logged once, not per retry). */
  private listenOutage = false;

  constructor(
    private readonly db: Db,
    private readonly pgInfo: PgConnectionInfo | undefined,
  ) {
    this.emitter.setMaxListeners(0);
    this.channel = pgInfo ? `avail_changes_${pgInfo.schema}`.slice(0, 63) : null;
  }

  /**
   * Listens to one user's changes. Returns the unsubscribe function (call it when the stream closes).
   * On PostgreSQL the first subscriber opens the LISTEN connection; await `ready()` before reading
   * the checkpoints the signals are relative to.
   */
  subscribe(userId: string, listener: ChangeListener): () => void {
    this.emitter.on(`u:${userId}`, listener);
    this.subscribers++;
    if (this.pgInfo && !this.listening) this.listening = this.startListening();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.emitter.off(`u:${userId}`, listener);
      this.subscribers--;
      if (this.subscribers === 0) void this.stopListening();
    };
  }

  /**
   * Listens to every user's data changes (see the file comment); counts as a subscriber, so on
   * PostgreSQL it keeps the LISTEN connection open until the returned unsubscribe is called.
   */
  subscribeOwners(listener: OwnerChangeListener): () => void {
    this.emitter.on(OWNER_EVENT, listener);
    this.subscribers++;
    if (this.pgInfo && !this.listening) this.listening = this.startListening();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.emitter.off(OWNER_EVENT, listener);
      this.subscribers--;
      if (this.subscribers === 0) void this.stopListening();
    };
  }

  /**
   * True while signals from every instance are being received: always on SQLite (one process);
   * on PostgreSQL only while the LISTEN connection is up (a cache must not trust itself otherwise).
   */
  get receivingAll(): boolean {
    return !this.pgInfo || (this.client !== null && this.listenUp);
  }
  private listenUp = false;

  /** Resolves once cross-instance notifications are being received (immediately on SQLite). Never rejects. */
  async ready(): Promise<void> {
    if (this.listening) await this.listening;
  }

  /**
   * Signals that `collections` of `userId` changed. Call after the write committed. Never throws:
   * the write is already durable. On PostgreSQL the cross-instance pg_notify is tried
   * NOTIFY_ATTEMPTS times; a signal lost after that is counted (`notifyFailures`) and logged
   * through `logger` — other instances then see the change at their next resync or pull.
   */
  async publish(userId: string, collections: readonly CollectionName[], logger?: BusLogger): Promise<void> {
    if (logger) this.logger = logger;
    const list = [...new Set(collections)];
    // Owner-data listeners first and always (even for a write that touched no replicated
    // collection, e.g. busy intervals only); replication streams only for replicated collections.
    this.emitter.emit(OWNER_EVENT, userId);
    if (list.length > 0) this.emitter.emit(`u:${userId}`, { collections: list } satisfies ChangeSignal);
    if (!this.channel) return;
    const payload = JSON.stringify({ i: this.instanceId, u: userId, c: list });
    for (let attempt = 1; ; attempt++) {
      try {
        await this.notify(this.channel, payload);
        return;
      } catch (err) {
        // Other instances would keep a stale public answer and their streams would wait for the
        // next pull: retry a few times, then say so (ids only; the payload holds no data anyway).
        if (attempt >= NOTIFY_ATTEMPTS) {
          this.notifyFailures++;
          logger?.warn({ userId, collections: list, errName: (err as Error)?.name, attempts: attempt }, 'change signal to other instances (pg_notify) failed');
          return;
        }
        await new Promise((r) => setTimeout(r, NOTIFY_RETRY_MS * attempt));
      }
    }
  }

  /** Signals lost after every retry (pg_notify failed NOTIFY_ATTEMPTS times); for tests and metrics. */
  notifyFailures = 0;
  /** LISTEN connections lost or refused (each outage counts once); for tests and metrics. */
  listenFailures = 0;

  /** Sets the logger LISTEN outages are reported through (publish() also sets it). */
  setLogger(logger: BusLogger): void {
    this.logger = logger;
  }

  /** Sends one notification (replaced in tests to simulate a failing database). */
  protected async notify(channel: string, payload: string): Promise<void> {
    await sql`select pg_notify(${channel}, ${payload})`.execute(this.db);
  }

  private async startListening(): Promise<void> {
    const info = this.pgInfo!;
    const client = new pg.Client({ connectionString: info.connectionString, ...(info.options ? { options: info.options } : {}) });
    this.client = client;
    client.on('notification', (msg) => {
      if (msg.channel !== this.channel || !msg.payload) return;
      try {
        const { i, u, c } = JSON.parse(msg.payload) as { i: string; u: string; c: CollectionName[] };
        if (i === this.instanceId || typeof u !== 'string' || !Array.isArray(c)) return;
        this.emitter.emit(OWNER_EVENT, u);
        if (c.length > 0) this.emitter.emit(`u:${u}`, { collections: c } satisfies ChangeSignal);
      } catch {
        // not ours
      }
    });
    client.on('error', (err) => this.lostConnection(client, err));
    client.on('end', () => this.lostConnection(client));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
      if (this.client === client) {
        this.listenUp = true;
        if (this.listenOutage) {
          this.listenOutage = false;
          this.logger?.info?.({ channel: this.channel }, 'change bus: LISTEN connection restored');
        }
      }
    } catch (err) {
      this.lostConnection(client, err);
    }
  }

  /**
   * The LISTEN connection broke or could not be opened: every subscriber resyncs; reconnect every
   * RECONNECT_MS while anyone listens. The first failure of an outage is counted and logged (warn:
   * other instances' changes are not heard meanwhile; error name only, never the connection string).
   */
  private lostConnection(client: pg.Client, err?: unknown) {
    if (this.client !== client) return;
    if (!this.listenOutage) {
      this.listenOutage = true;
      this.listenFailures++;
      this.logger?.warn(
        { channel: this.channel, errName: (err as Error | undefined)?.name ?? 'ConnectionEnded', subscribers: this.subscribers },
        'change bus: LISTEN connection lost; subscribers resync and it reconnects every second',
      );
    }
    this.client = null;
    this.listening = null;
    this.listenUp = false;
    client.end().catch(() => {});
    for (const name of this.emitter.eventNames()) {
      if (name === OWNER_EVENT) this.emitter.emit(name, null);
      else this.emitter.emit(name, { resync: true } satisfies ChangeSignal);
    }
    if (this.subscribers > 0 && !this.reconnectTimer) {
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = null;
        if (this.subscribers > 0 && !this.listening) this.listening = this.startListening();
      }, RECONNECT_MS);
      this.reconnectTimer.unref();
    }
  }

  private async stopListening(): Promise<void> {
    if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = null;
    }
    const client = this.client;
    const listening = this.listening;
    this.client = null;
    this.listening = null;
    this.listenUp = false;
    this.listenOutage = false; // nobody listens any more: a later LISTEN starts with a clean slate
    if (!client) return;
    await listening?.catch(() => {});
    // A subscriber may have arrived while we waited: it started its own connection already.
    await client.end().catch(() => {});
  }
}

const buses = new WeakMap<Db, ChangeBus>();

/** The change bus of a database handle (created on first use). Pass the app's root Db, not a transaction. */
export function changeBusFor(db: Db): ChangeBus {
  let bus = buses.get(db);
  if (!bus) {
    bus = new ChangeBus(db, pgConnectionInfo(db));
    buses.set(db, bus);
  }
  return bus;
}
