/**
 * Page views of public links, batched: one row per (owner, owner-zone day `YYYY-MM-DD`, visitor
 * hash) as before (`page_views`, unique on those three; repeats ignored), but not one INSERT per
 * request. One recorder per database handle (`pageViewsFor(db, flushMs)`).
 *
 *  - A view already recorded or pending in this process is dropped in memory (a bounded "seen" set).
 *  - New views wait in memory and are written in multi-row INSERT … ON CONFLICT DO NOTHING batches:
 *    `flushMs` (ms) after the first pending one, at once (without the request waiting) when BATCH_MAX are pending, before any
 *    analytics read (`flushPageViews`), and on shutdown (`closePageViews`). A normal stop loses
 *    nothing; a crash loses at most `flushMs` of views.
 *  - `flushMs = 0`: write-through — each new view is inserted before `record` resolves (the test
 *    app's default, so tests reading `page_views` right after a request see it).
 */
import type { Db } from '../db/kysely.ts';
import type { Logger } from 'pino';

export interface PageViewRow {
  user_id: string;
  /** Owner-zone calendar date `YYYY-MM-DD`. */
  day: string;
  /** sha256 hex of (secret, day, ip, user agent); never the IP. */
  visitor_hash: string;
  /** UTC epoch ms. */
  created_at: number;
}

/** Pending views that trigger a flush at once. */
const BATCH_MAX = 500;
/**
 * Rows per INSERT. An embedded (SQLite) write holds the event loop while it runs, so a flush is
 * written in small statements with a turn of the loop between them: visitors' requests go on
 * between two statements instead of waiting behind one large one.
 */
const INSERT_ROWS = 100;
/** Remembered (owner, day, visitor) keys before the set is emptied. */
const SEEN_MAX = 200_000;

export class PageViewRecorder {
  private pending: PageViewRow[] = [];
  private readonly seen = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    /** Delay (ms) before pending views are written; 0 = write-through. */
    readonly flushMs: number,
    private readonly logger?: Logger,
  ) {}

  /** Number of views waiting to be written. */
  get pendingCount(): number {
    return this.pending.length;
  }

  /** Counts a view (see the file comment). Never throws: a failed write is logged. */
  async record(row: PageViewRow): Promise<void> {
    const key = `${row.user_id}\u0000${row.day}\u0000${row.visitor_hash}`;
    if (this.seen.has(key)) return;
    if (this.seen.size >= SEEN_MAX) this.seen.clear();
    this.seen.add(key);
    this.pending.push(row);
    if (this.flushMs <= 0) {
      await this.flush();
    } else if (this.pending.length >= BATCH_MAX) {
      // A full batch is written at once, but the visitor whose view filled it does not wait for the
      // write (flush never rejects: failures are logged), so no request's latency carries it.
      void this.flush();
    } else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.flush();
      }, this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes every pending view; resolves when they (and any earlier flush) are stored. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const rows = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(async () => {
      for (let i = 0; i < rows.length; i += INSERT_ROWS) {
        if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        const batch = rows.slice(i, i + INSERT_ROWS);
        try {
          await this.db
            .insertInto('page_views')
            .values(batch)
            .onConflict((oc) => oc.columns(['user_id', 'day', 'visitor_hash']).doNothing())
            .execute();
        } catch {
          // One row can sink the batch (e.g. the owner's account was deleted meanwhile: a foreign
          // key): write the rows one by one, so only the rows that cannot be stored are dropped.
          let failed = 0;
          for (const r of batch) {
            try {
              await this.db
                .insertInto('page_views')
                .values(r)
                .onConflict((oc) => oc.columns(['user_id', 'day', 'visitor_hash']).doNothing())
                .execute();
            } catch {
              failed++;
              // Let this visitor count again later rather than never.
              this.seen.delete(`${r.user_id}\u0000${r.day}\u0000${r.visitor_hash}`);
            }
          }
          if (failed) this.logger?.warn({ views: failed }, 'could not record page views');
        }
      }
    });
    return this.flushing;
  }
}

const recorders = new WeakMap<Db, PageViewRecorder>();

/** The recorder of `db`; the first call fixes its `flushMs` (ms, 0 = write-through). */
export function pageViewsFor(db: Db, flushMs: number, logger?: Logger): PageViewRecorder {
  let r = recorders.get(db);
  if (!r) {
    r = new PageViewRecorder(db, flushMs, logger);
    recorders.set(db, r);
  }
  return r;
}

/** Writes the pending views of `db` (call before reading page_views for analytics). */
export async function flushPageViews(db: Db): Promise<void> {
  await recorders.get(db)?.flush();
}

/** Flushes and forgets the recorder of `db` (shutdown, test teardown). */
export async function closePageViews(db: Db): Promise<void> {
  const r = recorders.get(db);
  if (!r) return;
  await r.flush();
  recorders.delete(db);
}
