/**
 * Starts, for the whole run: an SMTP server capturing mail to files, a tiny HTTP server serving an
 * ICS feed with one busy event ('Secret Board Meeting', next week, 11:00–12:00 Europe/Brussels),
 * the local fakes of Google Calendar and Microsoft Graph (server/test/fakes) whose env the server
 * gets (with NODE_EXTRA_CA_CERTS naming the fakes' test CA: Graph is served over https), and the real Avail server as `npm start` runs it (compiled: `node server/dist/main.js`) on a free port with a temp
 * DATA_DIR and WEBHOOK_BASE_URL = its own URL behind the fakes' https relay (push-relay.ts).
 *
 * And the desktop renderer's stand-in: the same web build served from another origin with the
 * desktop app's Content-Security-Policy (shared/src/desktop/content-security-policy.ts), the way
 * Electron serves it from app://avail; the server allows that origin in CORS (DESKTOP_ORIGINS).
 *
 * Tests read E2E_BASE_URL, E2E_DESKTOP_URL, E2E_MAIL_DIR, E2E_ICS_URL and E2E_EVENT_DATE from the environment, and
 * E2E_FAKES_URL: the fakes live in this process, not in the test workers, so a small control
 * server drives them (see fakes-control.ts). Returns the teardown.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { desktopCsp } from '../../shared/src/desktop/content-security-policy.ts';
import { buildIcsFeed, nextWeekMonday, nextWeekWednesday, OWNER_ZONE } from './fixtures.ts';
import { startFakes } from './fakes-control.ts';
import { httpsRelayFor } from '../../server/test/fakes/push-relay.ts';
import { extraCaCertsWithTestCa } from '../../server/test/fakes/tls/test-ca.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, logs: string[], timeoutMs = 90_000): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`Avail server exited with ${child.exitCode}:\n${logs.join('')}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`Avail server did not answer ${url} within ${timeoutMs} ms:\n${logs.join('')}`);
}

export default async function globalSetup() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'avail-e2e-'));
  const dataDir = path.join(tmp, 'data');
  const mailDir = path.join(tmp, 'mail');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(mailDir, { recursive: true });

  // 1. SMTP capture: every message becomes one .eml file.
  let mailSeq = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        writeFileSync(path.join(mailDir, `${Date.now()}-${++mailSeq}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));

  // 2. ICS feed with one private, busy event next week.
  const eventDate = nextWeekWednesday(OWNER_ZONE);
  const feed = buildIcsFeed(eventDate);
  // `/once/<name>.ics`: the feed answers the first request only, then 500 (a feed that broke).
  const answeredOnce = new Set<string>();
  // `/switch/<name>.ics`: the feed (200) until a spec asks `/switch/<name>.ics?set=404` (any status; `?set=200` brings it back).
  const switched = new Map<string, number>();
  const icsServer = http.createServer((req, res) => {
    if (req.url?.startsWith('/switch/')) {
      const u = new URL(req.url, 'http://feed');
      const set = Number(u.searchParams.get('set'));
      if (set) {
        switched.set(u.pathname, set);
        res.writeHead(204).end();
        return;
      }
      const status = switched.get(u.pathname) ?? 200;
      res.writeHead(status, { 'Content-Type': 'text/calendar; charset=utf-8' });
      res.end(status === 200 ? feed : '');
    } else if (req.url?.startsWith('/once/')) {
      const first = !answeredOnce.has(req.url);
      answeredOnce.add(req.url);
      res.writeHead(first ? 200 : 500, { 'Content-Type': 'text/calendar; charset=utf-8' });
      res.end(first ? feed : '');
    } else if (req.url?.startsWith('/monday.ics')) {
      // The same private event on next week's Monday 11:00–12:00 Brussels (inside the default hours).
      res.writeHead(200, { 'Content-Type': 'text/calendar; charset=utf-8' });
      res.end(buildIcsFeed(nextWeekMonday(OWNER_ZONE)));
    } else if (req.url?.startsWith('/calendar.ics')) {
      res.writeHead(200, { 'Content-Type': 'text/calendar; charset=utf-8' });
      res.end(feed);
    } else {
      res.writeHead(404).end();
    }
  });
  const icsPort = await freePort();
  await new Promise<void>((resolve) => icsServer.listen(icsPort, '127.0.0.1', resolve));

  // 3. The Google and Microsoft fakes, and their control server.
  const fakes = await startFakes();

  // 4. The real server, and the desktop renderer's stand-in origin it allows.
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const desktop = await startDesktopRendererServer(baseUrl);
  const logs: string[] = [];
  // The server as `npm start` runs it: compiled to JavaScript first (server/scripts/build.mjs).
  const built = spawnSync(process.execPath, ['server/scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the server (server/scripts/build.mjs) failed');
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      TZ: 'UTC',
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: baseUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      ALLOW_PRIVATE_CALENDAR_HOSTS: 'true',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...fakes.env,
      // The Graph fake serves https with the test CA (server/test/fakes/tls/); Node reads this at start.
      NODE_EXTRA_CA_CERTS: extraCaCertsWithTestCa(process.env.NODE_EXTRA_CA_CERTS),
      // Google delivers only to https: the fakes reach the server through their TLS relay.
      WEBHOOK_BASE_URL: httpsRelayFor(baseUrl),
      DESKTOP_ORIGINS: `app://avail,${desktop.url}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.on('data', (d: Buffer) => logs.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => logs.push(d.toString()));
  let stopping = false;
  child.on('exit', (code, signal) => {
    // A server that dies mid-run fails every later test with "connection refused": say why.
    if (!stopping) console.error(`\n[e2e] Avail server exited unexpectedly (code ${code}, signal ${signal}). Its output:\n${logs.join('')}`);
  });
  const stop = async () => {
    stopping = true;
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      await new Promise((r) => setTimeout(r, 500));
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
    await new Promise<void>((r) => smtp.close(() => r()));
    await new Promise<void>((r) => icsServer.close(() => r()));
    await fakes.close();
    await new Promise<void>((r) => desktop.server.close(() => r()));
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    await waitForServer(`${baseUrl}/`, child, logs);
  } catch (e) {
    await stop();
    throw e;
  }

  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_DESKTOP_URL = desktop.url;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_ICS_URL = `http://127.0.0.1:${icsPort}/calendar.ics`;
  process.env.E2E_EVENT_DATE = eventDate;
  process.env.E2E_FAKES_URL = fakes.controlUrl;
  if (fakes.missing.length) console.warn(`[e2e] provider fakes not found, not started: ${fakes.missing.join(', ')}`);
  return stop;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
};

/**
 * Serves the web build like the desktop app's app:// protocol: files of the build, index.html for
 * any other path (SPA fallback), every answer with the desktop CSP (connect-src: the server only).
 */
async function startDesktopRendererServer(serverOrigin: string): Promise<{ url: string; server: http.Server }> {
  const dist = process.env.WEB_DIST_DIR ? path.resolve(root, process.env.WEB_DIST_DIR) : path.join(root, 'web', 'dist');
  const { readFile } = await import('node:fs/promises');
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(dist, path.normalize(pathname));
    const inside = file.startsWith(dist + path.sep) && path.extname(file) !== '';
    const target = inside ? file : path.join(dist, 'index.html');
    readFile(target).then(
      (body) => {
        res.writeHead(200, { 'Content-Type': CONTENT_TYPES[path.extname(target)] ?? 'application/octet-stream', 'Content-Security-Policy': desktopCsp(serverOrigin) });
        res.end(body);
      },
      () => res.writeHead(404).end(),
    );
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, server };
}
