/**
 * In-memory cache of the visitor path, one per database handle (`publicCacheFor(db)`), shared by
 * every app and job on that handle like the change bus.
 *
 * Holds:
 *  - owners by slug: `slug.toLowerCase()` → `{ id, name, timezone }` (unknown slugs are not cached);
 *  - answers: (owner id, raw `range`, raw `tz`) → the serialised 200 body (a Buffer of the JSON
 *    string) with the instants it was computed for, and its brotli / gzip codings and ETags
 *    (`encoded`, http/encoded-body.ts: each coding computed once, on the first request accepting
 *    it, so a cached answer costs no compression per request);
 *  - per owner, the longest busy interval (ms), the lower bound of the busy query (public.repo).
 *
 * Invalidation (never by time alone):
 *  - every committed `replicatedWrite` of a user — rules, exceptions, busy blocks, calendar
 *    events and busy intervals (sync, zone re-derivation, disconnect), profile (username,
 *    time zone) — publishes on the change bus (store/change-bus.ts), which bumps that owner's
 *    generation here synchronously, before the writer answers: the very next visitor request
 *    misses. Other instances hear it through PostgreSQL LISTEN/NOTIFY.
 *  - On PostgreSQL the cache is bypassed while the LISTEN connection is down, and emptied when it
 *    is lost (`resync`), since other instances' changes may have been missed.
 *  - An entry read or filled across a change is never stored (generation taken before the reads).
 *
 * The clock rule (windows never start before now; instants are shown to the second): an answer
 * computed at `computedAt` (ms) is served at `now` only when it is provably the same answer:
 *  - `now` is in the same "second bucket" as `computedAt` (the exact whole second `S·1000`, or the
 *    open interval `(S·1000, S·1000 + 1000)`): within one bucket every instant the answer shows —
 *    `floor(now)` of a default range start, `ceil(max(window start, now))` and
 *    `floor(min(window end, now + 28 d))` — is the same; or
 *  - the range was given explicitly (so it does not move with the clock), and
 *    `computedAt ≤ now ≤ firstWindowStart`: clipping at `now` has cut nothing yet (every window
 *    still starts at or after `now`), so the answer is unchanged. After that it is recomputed.
 */
import type { Db } from '../../db/kysely.ts';
import { EncodedBody } from '../../http/encoded-body.ts';
import { changeBusFor } from '../../store/change-bus.ts';

/** The owner fields the public answer needs (`timezone`: IANA zone). */
export interface PublicOwner {
  id: string;
  name: string;
  timezone: string;
  /** 1 = the plain `/{username}` link is off: only a personal link's key opens the page. */
  plain_link_off: number;
  /** The host's one-line introduction (issue 22), null = none. */
  intro: string | null;
  /** The host's picture version (the `v` of its URL), null = no picture. */
  avatar_version: string | null;
}

/** A cached 200 answer. Instants are UTC epoch ms. */
export interface CachedAnswer {
  /** The JSON body, UTF-8. */
  body: Buffer;
  /** The deps clock when it was computed. */
  computedAt: number;
  /** Start of the first free window (ms, before rounding), or Infinity when there is none. */
  firstWindowStart: number;
  /** True when the request named a range (the resolved range does not depend on the clock). */
  fixedRange: boolean;
  /** The answer is never valid at or after this instant (UTC ms), e.g. when its freshness flag turns stale; default Infinity. */
  validUntil?: number;
}

/** A cached answer as stored: with its codings (computed lazily, once each). */
export interface StoredAnswer extends CachedAnswer {
  encoded: EncodedBody;
}

interface AnswerEntry extends StoredAnswer {
  gen: number;
}

/** At most this many answers (oldest dropped first). */
const MAX_ANSWERS = 20_000;
const MAX_SLUGS = 50_000;

/** `0 ≤ ms`: the second bucket of `ms` (see the file comment): 2S for exactly S·1000, 2S+1 inside the second. */
export function secondBucket(ms: number): number {
  const s = Math.floor(ms / 1000);
  return ms === s * 1000 ? 2 * s : 2 * s + 1;
}

/** True when `entry` is exactly what a fresh computation at `now` would answer (the clock rule above). */
export function answerStillValid(entry: CachedAnswer, now: number): boolean {
  if (entry.validUntil !== undefined && now >= entry.validUntil) return false;
  if (secondBucket(now) === secondBucket(entry.computedAt)) return true;
  return entry.fixedRange && now >= entry.computedAt && now <= entry.firstWindowStart;
}

export class PublicCache {
  /** Generation per owner, bumped by every change of that owner. */
  private readonly gens = new Map<string, number>();
  /** Bumped by every change of anyone and by a resync: guards slug lookups (owner unknown beforehand). */
  private epoch = 0;
  /** Added to every generation; moves on clear(). */
  private base = 0;
  private readonly slugs = new Map<string, { owner: PublicOwner; gen: number }>();
  private readonly answers = new Map<string, AnswerEntry>();
  private readonly maxSpans = new Map<string, { span: number; gen: number }>();
  private readonly unsubscribe: () => void;
  private readonly bus;

  constructor(db: Db) {
    this.bus = changeBusFor(db);
    this.unsubscribe = this.bus.subscribeOwners((userId) => {
      if (userId === null) this.clear();
      else this.invalidate(userId);
    });
  }

  /** False while changes of other instances could be missed (PostgreSQL LISTEN down): do not use the cache. */
  get usable(): boolean {
    return this.bus.receivingAll;
  }

  /** Forgets everything of `userId` (its answers, its slugs, its busy span). */
  invalidate(userId: string): void {
    this.gens.set(userId, (this.gens.get(userId) ?? 0) + 1);
    this.epoch++;
  }

  /** Forgets everything. */
  clear(): void {
    this.answers.clear();
    this.slugs.clear();
    this.maxSpans.clear();
    this.gens.clear();
    // Generations must never repeat (an in-flight fill from before must not be stored after).
    this.base += 2 ** 32;
    this.epoch++;
  }

  /** The current generation of an owner (take it BEFORE reading the owner's data). */
  gen(userId: string): number {
    return this.base + (this.gens.get(userId) ?? 0);
  }

  /** The current global epoch (take it BEFORE looking a slug up in the database). */
  currentEpoch(): number {
    return this.epoch;
  }

  /** The owner holding `slugLower`, if cached and the owner has not changed since. */
  ownerBySlug(slugLower: string): PublicOwner | undefined {
    const e = this.slugs.get(slugLower);
    if (!e || !this.usable) return undefined;
    if (e.gen !== this.gen(e.owner.id)) {
      this.slugs.delete(slugLower);
      return undefined;
    }
    return e.owner;
  }

  /**
   * Stores a slug lookup made when the epoch was `epochBefore` (dropped if anyone changed since: a
   * rename may have raced the read). A cached slug dies with its owner's next change (e.g. a rename
   * releasing it), so a slug taken over later is looked up again.
   */
  storeOwner(slugLower: string, owner: PublicOwner, epochBefore: number): void {
    if (epochBefore !== this.epoch || !this.usable) return;
    if (this.slugs.size >= MAX_SLUGS) this.slugs.delete(this.slugs.keys().next().value!);
    this.slugs.set(slugLower, { owner, gen: this.gen(owner.id) });
  }

  /** The answer stored under `key` if still valid at `now` (clock rule) for the owner's current generation. */
  answer(key: string, userId: string, now: number): StoredAnswer | undefined {
    const e = this.answers.get(key);
    if (!e || !this.usable) return undefined;
    if (e.gen !== this.gen(userId) || !answerStillValid(e, now)) {
      this.answers.delete(key);
      return undefined;
    }
    return e;
  }

  /**
   * Stores an answer computed from reads made at owner generation `genBefore`. Returns its
   * `EncodedBody` (the one later hits share; a new one, not stored, when the answer was dropped).
   */
  storeAnswer(key: string, userId: string, genBefore: number, answer: CachedAnswer): EncodedBody {
    const encoded = new EncodedBody(answer.body);
    if (genBefore !== this.gen(userId) || !this.usable) return encoded;
    if (this.answers.size >= MAX_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(key, { ...answer, encoded, gen: genBefore });
    return encoded;
  }

  /** The owner's longest busy interval (ms) if known for the current generation. */
  maxSpan(userId: string): number | undefined {
    const e = this.maxSpans.get(userId);
    return e && this.usable && e.gen === this.gen(userId) ? e.span : undefined;
  }

  storeMaxSpan(userId: string, genBefore: number, span: number): void {
    if (genBefore !== this.gen(userId) || !this.usable) return;
    this.maxSpans.set(userId, { span, gen: genBefore });
  }

  /** Stops listening to the change bus (PostgreSQL: lets the LISTEN connection close). */
  close(): void {
    this.unsubscribe();
    this.clear();
  }
}

const caches = new WeakMap<Db, PublicCache>();

/** The public cache of a database handle (created, and subscribed to its change bus, on first use). */
export function publicCacheFor(db: Db): PublicCache {
  let c = caches.get(db);
  if (!c) {
    c = new PublicCache(db);
    caches.set(db, c);
  }
  return c;
}

/** Closes the cache of `db` if one was created (tests, shutdown). */
export function closePublicCache(db: Db): void {
  const c = caches.get(db);
  if (c) {
    c.close();
    caches.delete(db);
  }
}
