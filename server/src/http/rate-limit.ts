/**
 * Rate limiters (express-rate-limit). Keys are the client IP (IPv6 collapsed to its /56 by
 * `ipKeyGenerator`) or the lower-cased e-mail of the body, so a limit applies whether or not the
 * address has an account. Exceeding one is a 429 in the usual format.
 *
 * Where the counts live: in this process's memory on SQLite (one process); on PostgreSQL, where
 * several instances serve one database, in the database through @acpr/rate-limit-postgresql (the
 * PostgreSQL store listed by express-rate-limit, https://express-rate-limit.mintlify.app/reference/stores),
 * so a limit counts requests to every instance together (`withSharedStores`).
 */
import { createHmac } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import { PostgresStore } from '@acpr/rate-limit-postgresql';
import pg from 'pg';
import { tooManyRequests } from './errors.ts';

export interface LimitOptions {
  windowMs: number;
  limit: number;
  /** 'ip' (default), 'email' (body.email, lower-cased) or 'ip+email'. */
  key?: 'ip' | 'email' | 'ip+email';
  message?: string;
  /** Makes the store of each limiter built from these options (shared counts); absent = in memory. */
  store?: () => Store;
  /**
   * Server key: the e-mail part of a key is then HMAC-SHA256(key, address), never the address
   * (set with a shared store: the counts live in the database's `rate_limit` schema, which account
   * deletion does not rewrite — issue 26, no byte of a deleted owner's address may stay there).
   */
  keySecret?: Buffer;
}

function emailOf(req: Request, secret?: Buffer): string {
  const e = (req.body as { email?: unknown } | undefined)?.email;
  const address = typeof e === 'string' ? e.trim().toLowerCase() : '';
  if (!address || !secret) return address;
  return createHmac('sha256', secret).update(`rate-limit:${address}`).digest('hex').slice(0, 32);
}

/**
 * A rate-limit middleware: at most `options.limit` requests per `options.windowMs` (ms) per key
 * (see LimitOptions.key); beyond it, 429 `{ error: options.message ?? 'Too many requests. Please try again later.', code: 'rate_limited' }`
 * with draft-7 `RateLimit` headers. Each call has its own in-memory store: share one instance to share a budget.
 */
export function limiter(options: LimitOptions) {
  const key = options.key ?? 'ip';
  return rateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    ...(options.store ? { store: options.store() } : {}),
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    // Bodyless requests (no e-mail) share one bucket per IP for the e-mail limiters.
    keyGenerator: (req) => {
      const ip = ipKeyGenerator(req.ip ?? '');
      if (key === 'ip') return ip;
      if (key === 'email') return `e:${emailOf(req, options.keySecret) || `ip:${ip}`}`;
      return `${ip}|${emailOf(req, options.keySecret)}`;
    },
    handler: (_req: Request, _res: Response, next: NextFunction) => {
      next(tooManyRequests(options.message));
    },
  });
}

/** Connection of the shared store: the database URL, and a prefix naming this deployment's counts. */
export interface SharedLimitStore {
  connectionString: string;
  /** Distinguishes deployments sharing one PostgreSQL server (the application schema). */
  namespace: string;
  /** The server key (AVAIL_SECRET_KEY): addresses in keys are stored as its HMAC (LimitOptions.keySecret). */
  keySecret: Buffer;
}

/**
 * `limits` with a PostgreSQL store on each (counts shared by every instance on the database):
 * one store per limiter, named `<namespace>:<limit name>`, each with a pool of at most 2
 * connections. The store creates its own `rate_limit` schema on first use (postgres-migrations,
 * under an advisory lock; it needs the `uuid-ossp` extension).
 */
export function withSharedStores(limits: RateLimits, shared: SharedLimitStore): RateLimits {
  // The store's migrations bookkeeping goes to the default search_path: strip a per-connection one.
  const url = new URL(shared.connectionString);
  url.searchParams.delete('options');
  const config = { connectionString: url.toString(), max: 2, application_name: 'avail-rate-limits' };
  const out = {} as RateLimits;
  for (const [name, opts] of Object.entries(limits) as Array<[keyof RateLimits, LimitOptions]>) {
    out[name] = { ...opts, keySecret: shared.keySecret, store: () => new PostgresStore(config, `${shared.namespace}:${name}`) };
  }
  return out;
}

/**
 * Resolves once the shared store's schema is in place (its functions exist), polling every 100 ms:
 * the store migrates itself in the background when constructed, and a request counted before that
 * would fail. Call after createApp, before serving.
 * @throws Error after `timeoutMs` (ms) — e.g. no right to create the `rate_limit` schema or the
 *   `uuid-ossp` extension.
 */
export async function waitForSharedLimits(connectionString: string, timeoutMs = 30_000): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query(
        `select count(*)::int as n from pg_proc p join pg_namespace s on s.oid = p.pronamespace
         where s.nspname = 'rate_limit' and p.proname = 'agg_increment' and p.pronargs = 4`,
      );
      if (rows[0]?.n > 0) return;
      if (Date.now() > deadline) throw new Error('The shared rate-limit store (schema rate_limit) was not ready in time: may the database user create schemas and the uuid-ossp extension?');
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await client.end();
  }
}

/** Limits used by the routers; tests may pass smaller ones through createApp's options. */
export interface RateLimits {
  /** Auth endpoints per IP. */
  authPerIp: LimitOptions;
  /** Login attempts per IP + e-mail. */
  loginPerAccount: LimitOptions;
  /** Verification-code resends per address: the cooldown. */
  resendCooldown: LimitOptions;
  /** Verification e-mails per address per hour: resends and (re-)registrations share this budget. */
  resendHourly: LimitOptions;
  /** Public availability requests per IP. */
  publicPerIp: LimitOptions;
  /** Password-reset e-mails per address: the cooldown (POST /auth/forgot-password). */
  forgotPasswordCooldown: LimitOptions;
  /** Password-reset e-mails per address per hour. */
  forgotPasswordHourly: LimitOptions;
  /** Proposals (POST /public/:slug/proposals) per IP: every request counts. */
  proposalsPerIp: LimitOptions;
  /**
   * Proposals stored per owner in a sliding window: not a middleware but a database count
   * (proposals.service.ts), so it holds across instances. `key` is ignored.
   */
  proposalsPerOwner: LimitOptions;
  /** Provider notifications (POST /api/webhooks/*) per IP: far above what Google or Microsoft send. */
  webhooksPerIp: LimitOptions;
  /**
   * The proposal e-mail's one-click links (POST /api/proposal-links/*) per IP: an owner answering
   * a morning's proposals stays far below it; guessing a signed token is hopeless anyway (HMAC-SHA256).
   */
  proposalLinksPerIp: LimitOptions;
}

export const defaultRateLimits: RateLimits = {
  authPerIp: { windowMs: 15 * 60_000, limit: 300 },
  loginPerAccount: { windowMs: 15 * 60_000, limit: 20, key: 'ip+email', message: 'Too many login attempts. Please try again later.' },
  resendCooldown: { windowMs: 30_000, limit: 1, key: 'email', message: 'Please wait 30 seconds before requesting another code.' },
  resendHourly: { windowMs: 60 * 60_000, limit: 6, key: 'email', message: 'Too many verification emails requested. Please try again later.' },
  publicPerIp: { windowMs: 60_000, limit: 120 },
  forgotPasswordCooldown: { windowMs: 30_000, limit: 1, key: 'email', message: 'Please wait 30 seconds before requesting another code.' },
  forgotPasswordHourly: { windowMs: 60 * 60_000, limit: 6, key: 'email', message: 'Too many reset emails requested. Please try again later.' },
  proposalsPerIp: { windowMs: 60 * 60_000, limit: 5, message: 'Too many proposals. Please try again later.' },
  proposalsPerOwner: { windowMs: 24 * 60 * 60_000, limit: 30, message: 'Too many proposals. Please try again later.' },
  webhooksPerIp: { windowMs: 60_000, limit: 600 },
  proposalLinksPerIp: { windowMs: 15 * 60_000, limit: 60 },
};

/**
 * A lighter per-IP limiter for the hot visitor path, same contract as `limiter({ key: 'ip' })`:
 * at most `options.limit` requests per `options.windowMs` (ms) per client IP (IPv6 by its /56,
 * `ipKeyGenerator`), 429 in the usual format beyond it, draft-7 `RateLimit-Policy` / `RateLimit`
 * headers. Fixed windows aligned on `windowMs`; the counts are two plain Maps (this window's and a
 * dropped one), so a request costs one Map lookup and no promise, and memory is bounded by the
 * distinct clients of one window. In-memory per app instance, like the other limiters.
 * Leaves the client address it read in `res.locals.clientIp` (string).
 */
export function ipWindowLimiter(options: LimitOptions, clock: () => number = Date.now) {
  // Shared counts (several instances): the store-backed limiter, same contract.
  if (options.store) {
    const shared = limiter(options);
    return (req: Request, res: Response, next: NextFunction) => {
      res.locals.clientIp = req.ip ?? '';
      return shared(req, res, next);
    };
  }
  const windowMs = options.windowMs;
  const policy = `${options.limit};w=${Math.ceil(windowMs / 1000)}`;
  let windowStart = 0;
  let counts = new Map<string, number>();
  return (req: Request, res: Response, next: NextFunction) => {
    const now = clock();
    if (now - windowStart >= windowMs || now < windowStart) {
      windowStart = now - (now % windowMs);
      counts = new Map();
    }
    // req.ip re-parses X-Forwarded-For on every read: read it once, keep it for the handler.
    const ip = req.ip ?? '';
    res.locals.clientIp = ip;
    const key = ipKeyGenerator(ip);
    const used = (counts.get(key) ?? 0) + 1;
    counts.set(key, used);
    const reset = Math.max(0, Math.ceil((windowStart + windowMs - now) / 1000));
    res.setHeader('RateLimit-Policy', policy);
    res.setHeader('RateLimit', `limit=${options.limit}, remaining=${Math.max(0, options.limit - used)}, reset=${reset}`);
    if (used > options.limit) return next(tooManyRequests(options.message));
    next();
  };
}
