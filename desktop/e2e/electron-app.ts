/**
 * What the real-Electron specs share: finding Electron's binary (or why there is none), launching
 * the app (`electron desktop/` → `desktop/dist/main.cjs`, the package's `main`) with its own data
 * folder and the test hook on (`AVAIL_E2E=1`, desktop/src/main/e2e-hook.ts), reading and clicking
 * the tray through that hook, an owner made through the server's API, and a relay in front of the
 * server that a spec closes to take the server away from the app.
 *
 * Playwright pages followed: https://playwright.dev/docs/api/class-electron (`_electron.launch`)
 * and https://playwright.dev/docs/api/class-electronapplication (`evaluate`, `firstWindow`, `process`).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, type ElectronApplication } from 'playwright-core';
import type { E2eTrayProbe } from '../src/main/e2e-hook.ts';
import { OWNER_ZONE, uniqueAccount, waitForVerificationCode } from '../../web/e2e/fixtures.ts';

const desktopDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Electron's binary: its path, or why there is none (the package's own message, or the missing path). */
export type ElectronBinary = { path: string; missing: null } | { path: null; missing: string };

/**
 * Where `require('electron')` says the binary is (it honours `ELECTRON_OVERRIDE_DIST_PATH`), when
 * that file exists. Without the binary the package throws "Electron failed to install correctly…".
 */
export function electronBinary(): ElectronBinary {
  let exported: unknown;
  try {
    exported = require('electron');
  } catch (e) {
    return { path: null, missing: `require('electron') threw "${e instanceof Error ? e.message.split('\n')[0] : String(e)}"` };
  }
  if (typeof exported !== 'string') return { path: null, missing: 'the electron package did not export a path' };
  if (!existsSync(exported)) return { path: null, missing: `${exported} does not exist` };
  return { path: exported, missing: null };
}

/** The skip reason every spec carries when there is no binary (scripts/run-tests.mjs counts these). */
export function noBinaryReason(binary: ElectronBinary): string | null {
  return binary.path ? null : `no Electron binary on this machine (${binary.missing}; fetch it with \`node node_modules/electron/install.js\`)`;
}

/** A fresh data folder; `serverOrigin` is written as the confirmed server (desktop-config.json, server-setting-store.ts). */
export function newDataFolder(serverOrigin?: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'avail-desktop-e2e-'));
  if (serverOrigin) writeFileSync(path.join(dir, 'desktop-config.json'), `${JSON.stringify({ serverOrigin, confirmed: true }, null, 2)}\n`, { mode: 0o600 });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts the app as `electron desktop/` (desktop/package.json `main`: dist/main.cjs, built by
 * `npm run test:desktop`) with the data folder `dataDir` and the test hook on. On Linux Chromium's
 * own sandbox is turned off (`--no-sandbox`: CI runners lack the setuid helper and user namespaces);
 * the app's renderer settings (sandbox: true, contextIsolation) are unchanged. Also on Linux,
 * `--password-store=gnome-libsecret`: under xvfb no desktop environment is named, so Chromium would
 * pick the `basic_text` store and safeStorage would keep the token in memory only; with it, the
 * Secret Service of the session's gnome-keyring (desktop/README.md, "Real-Electron suite").
 */
export async function launchAvail(executablePath: string, dataDir: string): Promise<ElectronApplication> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return electron.launch({
    executablePath,
    args: [...(process.platform === 'linux' ? ['--no-sandbox', '--password-store=gnome-libsecret'] : []), desktopDir],
    env: { ...env, AVAIL_E2E: '1', AVAIL_USER_DATA_DIR: dataDir, TZ: OWNER_ZONE, LANG: 'en_GB.UTF-8' },
    timeout: 60_000,
  });
}

/** What the tray shows now, through `globalThis.__availE2E`; null before the tray exists. */
export interface TrayShown {
  tooltip: string;
  title: string;
  labels: string[];
}

/** Reads the tray's tooltip, title and menu labels in the main process. */
export function trayShown(app: ElectronApplication): Promise<TrayShown | null> {
  return app.evaluate(() => {
    const probe = (globalThis as { __availE2E?: E2eTrayProbe }).__availE2E;
    return probe ? { tooltip: probe.tooltip(), title: probe.title(), labels: probe.menuLabels() } : null;
  });
}

/**
 * Clicks the tray menu item labelled `label`. With `later` the click happens just after the
 * answer (for Quit, which ends the process the answer would come from).
 */
export async function clickTrayItem(app: ElectronApplication, label: string, { later = false } = {}): Promise<void> {
  await app.evaluate(
    (_electron, arg) => {
      const probe = (globalThis as { __availE2E?: E2eTrayProbe }).__availE2E;
      if (!probe) throw new Error('the test hook is missing (AVAIL_E2E=1 not honoured?)');
      if (arg.later) setTimeout(() => probe.clickMenuItem(arg.label), 50);
      else probe.clickMenuItem(arg.label);
    },
    { label, later },
  );
}

/** The exit code (or signal name) of the app's process once it has ended, or 'still running' after `timeoutMs`. */
export function processEnded(app: ElectronApplication, timeoutMs: number): Promise<number | string> {
  const proc = app.process();
  if (proc.exitCode !== null) return Promise.resolve(proc.exitCode);
  if (proc.signalCode !== null) return Promise.resolve(proc.signalCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still running'), timeoutMs);
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? signal ?? 'unknown');
    });
  });
}

/** An owner made through the API: registered, verified with the mailed code, open every day 00:00–23:59 in Brussels. */
export async function apiOwner(serverUrl: string, prefix = 'desk'): Promise<{ email: string; password: string; username: string; name: string }> {
  const acct = uniqueAccount(prefix);
  const password = 'password-123';
  const call = async (method: string, route: string, body: unknown, token?: string) => {
    const res = await fetch(`${serverUrl}${route}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  await call('POST', '/api/auth/register', { name: acct.name, email: acct.email, password, password_confirmation: password });
  const code = await waitForVerificationCode(acct.email);
  const verified = await call('POST', '/api/auth/verify-email', { email: acct.email, verification_code: code });
  const token = String(verified.token);
  await call('PUT', '/api/me/profile', { timezone: OWNER_ZONE }, token);
  await call('PUT', '/api/me/profile/username', { username: acct.username }, token);
  const allWeek = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time_local: '00:00', end_time_local: '23:59' }));
  await call('POST', '/api/me/availability-rules', { rules: allWeek }, token);
  return { ...acct, password };
}

/**
 * A TCP relay on a free local port to `target` (the suite's server). The app is pointed at the
 * relay; `close()` ends every connection and stops listening, so for the app the server is gone
 * (connection refused) while the suite's server keeps serving the other specs.
 */
export async function relayTo(target: string): Promise<{ origin: string; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: relayPort } = server.address() as net.AddressInfo;
  return {
    origin: `http://127.0.0.1:${relayPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
