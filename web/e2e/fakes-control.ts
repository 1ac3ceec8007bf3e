/**
 * The local fakes of Google Calendar and Microsoft Graph (server/test/fakes) for the browser tests.
 *
 * Playwright runs global-setup in the runner process and the specs in worker processes, so the
 * fakes (started by global-setup, their env handed to the Avail server) are driven from the specs
 * through a tiny control server in the runner process:
 *   POST {E2E_FAKES_URL}/{google|microsoft}/call  { method, args }  → { result } | { error }
 *   GET  {E2E_FAKES_URL}/{google|microsoft}/state                    → { url, account, channels, subscriptions }
 * `fakeCall('google', 'putEvent', calendarId, event)` calls the fake's own method with JSON args.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type FakeName = 'google' | 'microsoft';

/** The accounts the fakes sign in as. */
export const GOOGLE_ACCOUNT = 'olivia.google@example.com';
export const MICROSOFT_ACCOUNT = 'olivia.outlook@example.com';

const fakesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'test', 'fakes');
const MODULES: Record<FakeName, { file: string; options: Record<string, unknown> }> = {
  google: { file: 'google-calendar-fake.ts', options: { account: GOOGLE_ACCOUNT } },
  microsoft: { file: 'microsoft-graph-fake.ts', options: { account: { email: MICROSOFT_ACCOUNT, name: 'Olivia Owner' } } },
};

interface RunningFake {
  url: string;
  env: Record<string, string>;
  close(): Promise<void>;
  [k: string]: unknown;
}

/** Starts both fakes (those whose module exists) and the control server. Runner process only. */
export async function startFakes(): Promise<{ env: Record<string, string>; controlUrl: string; missing: FakeName[]; close(): Promise<void> }> {
  const running: Partial<Record<FakeName, RunningFake>> = {};
  const missing: FakeName[] = [];
  for (const name of Object.keys(MODULES) as FakeName[]) {
    const file = path.join(fakesDir, MODULES[name].file);
    if (!existsSync(file)) {
      missing.push(name);
      continue;
    }
    const mod = (await import(pathToFileURL(file).href)) as { start(o?: Record<string, unknown>): Promise<RunningFake> };
    running[name] = await mod.start(MODULES[name].options);
  }

  const control = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body ?? null));
    };
    const m = /^\/(google|microsoft)\/(call|state)$/.exec(req.url ?? '');
    const fake = m ? running[m[1] as FakeName] : undefined;
    if (!m || !fake) return send(404, { error: `no such fake or route: ${req.url}` });
    if (m[2] === 'state') {
      const pick = (k: string) => (k in fake ? JSON.parse(JSON.stringify(fake[k] ?? null)) : undefined);
      return send(200, { url: fake.url, account: pick('account'), channels: pick('channels'), subscriptions: pick('subscriptions') });
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        try {
          const { method, args } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { method: string; args?: unknown[] };
          const fn = fake[method];
          if (typeof fn !== 'function') return send(400, { error: `the ${m[1]} fake has no method ${method}` });
          const result: unknown = await (fn as (...a: unknown[]) => unknown).apply(fake, args ?? []);
          send(200, { result: result === undefined ? null : result });
        } catch (e) {
          send(500, { error: String((e as Error)?.message ?? e) });
        }
      })();
    });
  });
  await new Promise<void>((r) => control.listen(0, '127.0.0.1', r));
  const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;

  return {
    env: Object.assign({}, ...Object.values(running).map((f) => f.env)) as Record<string, string>,
    controlUrl,
    missing,
    async close() {
      await new Promise<void>((r) => control.close(() => r()));
      for (const f of Object.values(running)) await f.close().catch(() => undefined);
    },
  };
}

// ---- from the specs -------------------------------------------------------------------------

function controlUrl(): string {
  const u = process.env.E2E_FAKES_URL;
  if (!u) throw new Error('E2E_FAKES_URL not set (global setup did not run)');
  return u;
}

/** Whether global-setup started this fake. */
export async function fakeRunning(name: FakeName): Promise<boolean> {
  const res = await fetch(`${controlUrl()}/${name}/state`);
  return res.ok;
}

/** Calls a method of a fake (JSON arguments and result). */
export async function fakeCall<T = unknown>(name: FakeName, method: string, ...args: unknown[]): Promise<T> {
  const res = await fetch(`${controlUrl()}/${name}/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ method, args }),
  });
  const body = (await res.json()) as { result?: T; error?: string };
  if (!res.ok) throw new Error(`fake ${name}.${method}: ${body.error ?? res.status}`);
  return body.result as T;
}

/** The fake's public state: its URL, account, and push channels (Google) / subscriptions (Graph). */
export async function fakeState(name: FakeName): Promise<{ url: string; account?: string; channels?: Array<Record<string, unknown>>; subscriptions?: Array<Record<string, unknown>> }> {
  const res = await fetch(`${controlUrl()}/${name}/state`);
  if (!res.ok) throw new Error(`fake ${name} is not running`);
  return (await res.json()) as { url: string };
}
