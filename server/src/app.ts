/**
 * createApp(deps) → the Express app, without listen() (tests import this).
 * Order: security headers (helmet), on-the-fly compression (br/gzip above 1 KB; not SSE, not what is
 * sent precompressed), request log, health/ready, JSON body, /api routers, /api 404, static web build
 * (precompressed .br/.gz, immutable /assets/, http/static-files.ts), server-rendered public pages
 * (/{username}, /u/{username}), 404 for asset-like paths, SPA fallback (no-cache + ETag), error renderer.
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { isReservedUsername } from '@avail/shared/constants.ts';
import type { AppDeps, Deps } from './http/deps.ts';
import { desktopCors } from './http/desktop-cors.ts';
import { apiNotFound, errorHandler } from './http/error-handler.ts';
import { compressResponses } from './http/compression.middleware.ts';
import { rejectNulInUrl, rejectUnstorableBody } from './http/text-guard.middleware.ts';
import { sendStaticFile, staticFiles } from './http/static-files.ts';
import { defaultRateLimits, withSharedStores, type RateLimits, type SharedLimitStore } from './http/rate-limit.ts';
import { pgConnectionInfo } from './db/kysely.ts';
import { requestLogger } from './http/request-logger.ts';
import { securityHeaders } from './http/security-headers.ts';
import { healthRouter } from './modules/health/index.ts';
import { changeBusFor } from './store/change-bus.ts';
import { accountSecurityRouter, authRouter, twoFactorRouter } from './modules/auth/index.ts';
import { profileRouter } from './modules/profile/index.ts';
import { availabilityRouter } from './modules/availability/index.ts';
import { blocksRouter } from './modules/blocks/index.ts';
import { dashboardRouter } from './modules/dashboard/index.ts';
import { publicPageHandler, publicRouter } from './modules/public/index.ts';
// Calendars router: owned by the calendars engineer (modules/calendars).
import { calendarsRouter } from './modules/calendars/index.ts';
import { conflictsRouter, replicationRouter, type ReplicationRouterOptions } from './modules/replication/index.ts';
import { oauthRouter } from './modules/oauth/index.ts';
import { webhooksRouter } from './modules/webhooks/index.ts';
import { linksRouter } from './modules/links/index.ts';
import { proposalsRouter, startProposalRequests } from './modules/proposals/index.ts';
import { shareLinksRouter } from './modules/share-links/index.ts';

export type { AppDeps, Deps } from './http/deps.ts';

export interface AppOptions {
  /** Override rate limits (tests). */
  rateLimits?: Partial<RateLimits>;
  /** Replication endpoint options (tests shorten the stream heartbeat). */
  replication?: ReplicationRouterOptions;
}

/** True for paths of public availability pages: `/u/:slug` and `/:slug` (slug not a reserved name). */
export function isPublicPagePath(p: string): boolean {
  const u = /^\/u\/([^/]+)\/?$/.exec(p);
  if (u) return true;
  const top = /^\/([^/.]+)\/?$/.exec(p);
  if (!top) return false;
  try {
    return !isReservedUsername(decodeURIComponent(top[1]));
  } catch {
    return true; // malformed escape: treat as a (non-existent) public page, never as an app route
  }
}

/** True for the embed page `/embed/:slug` (issue 14 item 7): the one page other sites may frame. */
export function isEmbedPagePath(p: string): boolean {
  return /^\/embed\/[^/]+\/?$/.test(p);
}

/**
 * True for paths that name a file rather than an app route: anything under `/assets/`, or whose
 * last segment has a file extension (`/favicon.ico`, `/logo.png`, `/x/app.js.map`). App routes
 * and usernames never contain a dot in their last segment (usernames: [a-z0-9-]).
 */
export function isAssetLikePath(p: string): boolean {
  if (p.startsWith('/assets/')) return true;
  const last = p.slice(p.lastIndexOf('/') + 1);
  return /\.[A-Za-z0-9]{1,12}$/.test(last);
}

/**
 * The shared rate-limit store's connection when counts must be shared (PostgreSQL, RATE_LIMIT_STORE
 * 'auto' or 'postgres'), else null. Its namespace is the application schema: the `search_path` in
 * DATABASE_URL's `options`, else the schema the database handle was opened on.
 * @throws Error for RATE_LIMIT_STORE=postgres without DATABASE_URL.
 */
export function sharedLimitStoreFor(deps: Pick<Deps, 'config' | 'db'>): SharedLimitStore | null {
  const { DATABASE_URL, RATE_LIMIT_STORE } = deps.config;
  if (RATE_LIMIT_STORE === 'memory') return null;
  if (!DATABASE_URL) {
    if (RATE_LIMIT_STORE === 'postgres') throw new Error('RATE_LIMIT_STORE=postgres needs DATABASE_URL');
    return null;
  }
  const fromUrl = /search_path=([A-Za-z0-9_]+)/.exec(new URL(DATABASE_URL).searchParams.get('options') ?? '')?.[1];
  return { connectionString: DATABASE_URL, namespace: fromUrl ?? pgConnectionInfo(deps.db)?.schema ?? 'public', keySecret: deps.config.AVAIL_SECRET_KEY };
}

export function createApp(appDeps: AppDeps, options: AppOptions = {}) {
  const deps: Deps = { ...appDeps, now: appDeps.now ?? Date.now };
  let limits: RateLimits = { ...defaultRateLimits, ...options.rateLimits };
  const sharedLimits = sharedLimitStoreFor(deps);
  if (sharedLimits) limits = withSharedStores(limits, sharedLimits);
  const app = express();
  app.disable('x-powered-by');
  // Honour X-Forwarded-For only from a reverse proxy on this machine.
  app.set('trust proxy', 'loopback');
  app.set('etag', false);

  // helmet: CSP, frame-ancestors 'none', X-Frame-Options, nosniff, HSTS on https (http/security-headers.ts).
  app.use(securityHeaders(deps.config.PUBLIC_BASE_URL));
  app.use(requestLogger(deps.logger));
  // The change bus logs a lost LISTEN connection (PostgreSQL) through the app's logger from the start.
  changeBusFor(deps.db).setLogger(deps.logger);
  // A NUL in the address: 404 in the path, 400 in the query — before any router can hand it to
  // the database (PostgreSQL refuses it: issue 26, http/text-guard.middleware.ts).
  app.use('/api', rejectNulInUrl);
  // Liveness and readiness for load balancers (no auth, no rate limit): modules/health.
  app.use('/api', healthRouter(deps));
  // The desktop app (app://avail) calls /api cross-origin with a bearer token; no one else may.
  app.use('/api', desktopCors(deps.config.DESKTOP_ORIGINS));
  // The visitor path first (GET, no body; it sets its own no-store headers): the hottest route
  // matches before the body parsers and without walking the owner routers' stacks.
  app.use('/api', publicRouter(deps, limits));
  // br/gzip on the fly for HTML, JSON, JS, CSS, ICS ≥ 1 KB, Vary: Accept-Encoding (http/compression.middleware.ts).
  // After the visitor API: its answers are sent already coded from the public cache (and its
  // errors are small), so the hottest route skips the on-the-fly wrapper.
  app.use(compressResponses());
  // A replication push carries up to PUSH_BATCH_MAX (500) documents with their assumed states.
  app.use('/api/replication', express.json({ limit: '4mb' }));
  app.use('/api', express.json({ limit: '256kb' }));
  // Strings no database stores as sent (NUL, unpaired surrogates): 422 on the field.
  app.use('/api', rejectUnstorableBody);
  app.use('/api', (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  app.use('/api', authRouter(deps, limits));
  // The owner's sessions, password change and e-mail change while signed in (issue 26): modules/auth.
  app.use('/api', accountSecurityRouter(deps, limits));
  // Two-factor sign-in (TOTP) setup, enable, disable (issue 26): modules/auth/two-factor.*.
  app.use('/api', twoFactorRouter(deps));
  // The profile, and the host's public picture (/api/public/:slug/avatar.webp, limited per IP): modules/profile.
  app.use('/api', profileRouter(deps, limits));
  app.use('/api', availabilityRouter(deps));
  // The owner's manual busy blocks: modules/blocks.
  app.use('/api', blocksRouter(deps));
  app.use('/api', dashboardRouter(deps));
  // Versions replaced by another device's (Settings): modules/replication.
  app.use('/api', conflictsRouter(deps));
  // Visitors' proposed times (public POST), the owner's decisions, settings and one-click links: modules/proposals.
  app.use('/api', proposalsRouter(deps, limits));
  // Decisions made on a device (also offline) arrive by replication and are carried out here (issue 24).
  startProposalRequests(deps);
  // The owner's links and per-day view analytics: modules/links.
  app.use('/api', linksRouter(deps));
  app.use('/api', shareLinksRouter(deps));
  // Calendars (connections, events, Sync Now): modules/calendars.
  app.use('/api', calendarsRouter(deps));
  // Google / Microsoft: connect, OAuth callback, providers; their webhooks (no auth).
  app.use('/api', oauthRouter(deps));
  app.use('/api', webhooksRouter(deps, limits));
  // RxDB HTTP replication (pull, push, live stream): modules/replication.
  app.use('/api', replicationRouter(deps, options.replication));
  app.use('/api', apiNotFound);

  const dist = deps.config.WEB_DIST_DIR;
  const indexHtml = path.join(dist, 'index.html');
  if (existsSync(indexHtml)) {
    // Precompressed br/gzip copies of the build, /assets/* immutable, HTML no-cache (http/static-files.ts).
    // The server's renderer (dist/ssr) and the bare public-page template are build inputs, not pages.
    app.use(
      staticFiles(dist, {
        skip: (p) => p.startsWith('/ssr/') || p === '/public.html',
        // /embed.js is loaded by other sites' pages (`<script src>`, a no-cors load): CORP must allow it.
        setHeaders: (res, file) => {
          if (path.basename(file) === 'embed.js' && path.dirname(file) === path.resolve(dist)) res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
        },
      }),
    );
    // Public pages: server-rendered from the build's public.html (modules/public/public-page.service.ts);
    // `/embed/:slug`, the same page in the compact layout other sites may frame (through /embed.js).
    const publicPage = publicPageHandler(deps, dist, limits.publicPerIp);
    const embedPage = publicPageHandler(deps, dist, limits.publicPerIp, true);
    app.use((req: Request, res: Response, next: NextFunction) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      if (isEmbedPagePath(req.path)) return void embedPage(req, res, next).catch(next);
      if (isPublicPagePath(req.path)) return void publicPage(req, res, next).catch(next);
      next();
    });
    app.use((req: Request, res: Response, next: NextFunction) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      // A file the build does not have (/favicon.ico, /x.png, /assets/old-hash.js) is a 404, never
      // the app's HTML: a browser or a cached page asking for a stale script gets a clear answer.
      if (isAssetLikePath(req.path)) return void res.status(404).type('text/plain').send('Not found');
      if (isPublicPagePath(req.path)) {
        res.setHeader('X-Robots-Tag', 'noindex');
        res.setHeader('Referrer-Policy', 'no-referrer');
      }
      // Revalidated on every load: no-cache with an ETag, 304 when unchanged; precompressed when accepted.
      stat(indexHtml)
        .then((s) => sendStaticFile(req, res, next, indexHtml, s, '/index.html', 'no-cache'))
        .catch(next);
    });
  }

  app.use(errorHandler(deps.logger));
  return app;
}
