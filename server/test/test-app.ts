/**
 * The app as tests see it: real migrated database (see test-db.ts), in-memory mailer outbox,
 * controllable clock, silent logger. No listen(): pass `t.app` to supertest.
 *
 *   const t = await createTestApp();
 *   afterAll(() => t.close());
 *   await request(t.app).post('/api/auth/register').send({...});
 *   t.outbox[0].text  // the verification e-mail
 *   t.clock.advance(16 * 60_000)
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pino } from 'pino';
import { createApp, type AppOptions } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { Deps } from '../src/http/deps.ts';
import { createOutboxMailer, type MailMessage } from '../src/mail/mailer.ts';
import { closeSyncQueue } from '../src/modules/sync/sync-queue.ts';
import { closePageViews } from '../src/store/page-views.ts';
import { closePublicCache } from '../src/modules/public/public-cache.ts';
import { stopProposalRequests } from '../src/modules/proposals/proposal-requests.service.ts';
import { closeDerivePool } from '../src/modules/sync/derive-pool.ts';
import type { EventWriter } from '../src/providers/event-writer.ts';
import type { OAuthCalendarProvider, OAuthProviderId } from '../src/providers/oauth-provider.ts';
import { createTestDb, type TestDb } from './test-db.ts';

/** A clock tests can stop and move. Until `set`/`advance` is called it follows Date.now(). */
interface TestClock {
  now(): number;
  set(ms: number | Date | string): void;
  advance(ms: number): void;
  /** Back to following Date.now(). */
  reset(): void;
}

function createTestClock(): TestClock {
  let fixed: number | null = null;
  return {
    now: () => fixed ?? Date.now(),
    set(ms) {
      fixed = typeof ms === 'number' ? ms : new Date(ms).getTime();
    },
    advance(ms) {
      fixed = (fixed ?? Date.now()) + ms;
    },
    reset() {
      fixed = null;
    },
  };
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  /** The deps the app was built with (db, config, logger, mailer, now). */
  deps: Deps;
  db: Deps['db'];
  config: Config;
  testDb: TestDb;
  /** Every e-mail the app sent, oldest first. */
  outbox: MailMessage[];
  clock: TestClock;
  /** Stops scheduled syncs and the derive worker pool, then destroys the database (drops the PostgreSQL schema). */
  close(): Promise<void>;
}

export interface TestAppOptions extends AppOptions {
  /** Extra environment for loadConfig (e.g. { ALLOW_PRIVATE_CALENDAR_HOSTS: 'true' }). */
  env?: Record<string, string>;
  /** OAuth adapters replacing the registry's (a test adapter); default: the real adapters. */
  oauthProviders?: Partial<Record<OAuthProviderId, OAuthCalendarProvider>>;
  /** Event writers replacing the registry's by provider id (providers/event-writers.ts); default: the real writers. */
  eventWriters?: Partial<Record<string, EventWriter>>;
  /** Receives every log line the app writes (JSON, level debug and up), e.g. to scan it; default: silent. */
  logStream?: { write(line: string): void };
  /** 'sqlite': a SQLite file even when TEST_POSTGRES_URL is set (a test of SQLite's own files). */
  dialect?: 'sqlite';
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const testDb = await createTestDb({ dialect: options.dialect });
  const config = loadConfig(
    {
      DATA_DIR: testDb.dir,
      AVAIL_SECRET_KEY: randomBytes(32).toString('hex'),
      WEB_DIST_DIR: path.join(testDb.dir, 'no-web-dist'),
      LOG_LEVEL: 'silent',
      PUBLIC_BASE_URL: 'http://avail.test',
      // Page views written through (tests read page_views right after a request); batching has its own tests.
      PAGE_VIEW_FLUSH_MS: '0',
      // In-memory limits keep each test app's counts its own; the shared PostgreSQL store has its own tests.
      RATE_LIMIT_STORE: 'memory',
      // Tests move the clock years ahead of the tokens they issued; sessions then live ~100 years.
      // Expiry has its own tests, which pass SESSION_IDLE_DAYS / SESSION_MAX_DAYS themselves (issue 26).
      SESSION_IDLE_DAYS: '36500',
      SESSION_MAX_DAYS: '36500',
      ...(testDb.databaseUrl ? { DATABASE_URL: testDb.databaseUrl } : {}),
      ...options.env,
    },
    testDb.dir,
  );
  const mailer = createOutboxMailer();
  const clock = createTestClock();
  const logger = options.logStream ? pino({ level: 'debug' }, options.logStream) : pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const deps: Deps = {
    db: testDb.db,
    config,
    logger,
    mailer,
    now: clock.now,
    ...(options.oauthProviders ? { oauthProviders: options.oauthProviders } : {}),
    ...(options.eventWriters ? { eventWriters: options.eventWriters } : {}),
  };
  const app = createApp(deps, options);
  return {
    app,
    deps,
    db: testDb.db,
    config,
    testDb,
    outbox: mailer.outbox,
    clock,
    close: async () => {
      stopProposalRequests(testDb.db);
      await closeSyncQueue(testDb.db);
      await closePageViews(testDb.db);
      closePublicCache(testDb.db);
      await closeDerivePool();
      await testDb.destroy();
    },
  };
}

/** The 6-digit code of the latest verification e-mail sent to `email`. */
export function lastCodeFor(outbox: MailMessage[], email: string): string {
  for (let i = outbox.length - 1; i >= 0; i--) {
    if (outbox[i].to.toLowerCase() === email.toLowerCase()) {
      const m = /\b(\d{6})\b/.exec(outbox[i].text);
      if (m) return m[1];
    }
  }
  throw new Error(`no verification e-mail for ${email}`);
}
