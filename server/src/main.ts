/**
 * Server entry point — the only file with side effects: config, database, migrations, listen,
 * background jobs, graceful shutdown.
 */
process.env.TZ = 'UTC';
// Files this server creates (database, WAL, key, backups) are readable by its user only.
process.umask(0o077);
export {};

const { createLogger, logFormatFor } = await import('./lib/logger.ts');
const { loadConfig, ConfigError } = await import('./config.ts');
const { createDb, dialectOf } = await import('./db/kysely.ts');
const { migrateToLatest } = await import('./db/migrate.ts');
const { createApp } = await import('./app.ts');
const { createMailer } = await import('./mail/mailer.ts');
const { closeAllStreams } = await import('./modules/replication/index.ts');

let config: import('./config.ts').Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

// JSON lines written asynchronously in batches (flushed on shutdown below), or readable lines on
// a terminal (lib/logger.ts).
const logger = createLogger(config.LOG_LEVEL, logFormatFor(Boolean(process.stdout.isTTY), process.env.LOG_FORMAT));
const db = createDb(config);
const applied = await migrateToLatest(db);
logger.info({ dialect: dialectOf(config), applied, ...(config.DATABASE_URL ? {} : { file: config.SQLITE_PATH }) }, 'database ready');

// ICS feed URLs stored in plain text by earlier versions are encrypted before anything runs.
const { sealLegacyIcsFeeds } = await import('./modules/calendars/index.ts');
const sealed = await sealLegacyIcsFeeds({ db, config, now: Date.now });
if (sealed > 0) logger.info({ sealed }, 'ICS feed URLs moved to encrypted storage');
// Calendar content (raw ICS, event titles) written in plain text by earlier versions is sealed.
const { sealCalendarContent } = await import('./modules/calendars/index.ts');
const sealedRows = await sealCalendarContent({ db, config });
if (sealedRows > 0) logger.info({ rows: sealedRows }, 'calendar content sealed at rest');
// Personal text written in clear by earlier versions (block notes, proposal texts, …) is sealed (issue 26).
const { sealPlainPersonalText } = await import('./store/sealed-text.repo.ts');
const sealedText = await sealPlainPersonalText(db, config.AVAIL_SECRET_KEY);
if (sealedText > 0) logger.info({ rows: sealedText }, 'personal text sealed at rest');

const mailer = createMailer(config, logger);
const deps = { db, config, logger, mailer, now: Date.now };
const app = createApp(deps);
// Rate limits shared by instances (PostgreSQL): their store's schema is ready before we serve.
const { sharedLimitStoreFor } = await import('./app.ts');
const sharedLimits = sharedLimitStoreFor(deps);
if (sharedLimits) await (await import('./http/rate-limit.ts')).waitForSharedLimits(sharedLimits.connectionString);

// ── Background jobs: the backup calendar sync (each connection every 15 minutes) and push-channel upkeep. ──
const { startJobs } = await import('./jobs/scheduler.ts');
const jobs = await startJobs(deps);

const server = app.listen(config.PORT, () => {
  logger.info(`Avail listening on ${config.PUBLIC_BASE_URL} (port ${config.PORT})`);
});
// An idle keep-alive connection is closed after 65 s, not Node's 5 s: a client (a browser, the
// desktop app, a proxy with a 60 s idle timeout) reusing it just as the server closed it gets
// ECONNRESET on a request the server never saw. The headers timeout must exceed it (Node docs,
// http.Server.keepAliveTimeout).
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  logger.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await jobs.stop();
    // Webhook-scheduled syncs: pending timers dropped (the backup sync covers them), running ones awaited.
    const { closeSyncQueue } = await import('./modules/sync/index.ts');
    await closeSyncQueue(db);
    // The derive worker threads (sync off the request thread).
    const { closeDerivePool } = await import('./modules/sync/index.ts');
    await closeDerivePool();
    const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Open replication streams never finish on their own: end them so close() can complete.
    closeAllStreams();
    // Their sockets are idle keep-alive connections once the ends are flushed.
    setTimeout(() => server.closeIdleConnections(), 100).unref();
    await serverClosed;
    // Page views still batched in memory are written before the database closes.
    const { closePageViews } = await import('./store/page-views.ts');
    await closePageViews(db);
    const { stopProposalRequests } = await import('./modules/proposals/index.ts');
    stopProposalRequests(db);
    const { closePublicCache } = await import('./modules/public/index.ts');
    closePublicCache(db);
    await db.destroy();
  } catch (err) {
    logger.error({ err }, 'error during shutdown');
  }
  await new Promise<void>((resolve) => logger.flush(() => resolve()));
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
