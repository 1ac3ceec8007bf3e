/**
 * The real server (`server/src/main.ts`) as its own process on a test database (SQLite file or
 * PostgreSQL schema), for tests that kill it (SIGKILL) and start it again on the same data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './replication/rx-device.ts';
import type { TestDb } from './test-db.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
    s.on('error', reject);
  });
}

export interface ServerProcess {
  readonly port: number;
  readonly baseUrl: string;
  /** Starts the server (again) and resolves once it answers. */
  start(): Promise<void>;
  /** SIGKILL: no shutdown hook runs. Resolves when the process is gone. */
  kill(): Promise<void>;
}

/** A server process on `testDb` at `port`, with `secretKey` (hex) as AVAIL_SECRET_KEY and `env` added to its environment. */
export function serverProcess(testDb: TestDb, port: number, secretKey: string, env: Record<string, string> = {}): ServerProcess {
  let child: ChildProcess | null = null;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    port,
    baseUrl,
    async start() {
      const databaseUrl = testDb.databaseUrl
        ? `${testDb.databaseUrl}${testDb.databaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${testDb.location}`)}`
        : '';
      child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
        cwd: repoRoot,
        env: {
          ...process.env,
          PORT: String(port),
          DATA_DIR: testDb.dir,
          DATABASE_URL: databaseUrl,
          AVAIL_SECRET_KEY: secretKey,
          LOG_LEVEL: 'warn',
          WEB_DIST_DIR: path.join(testDb.dir, 'no-web-dist'),
          PUBLIC_BASE_URL: baseUrl,
          ...env,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      await waitFor(
        async () => {
          try {
            return (await fetch(`${baseUrl}/api/me`)).status === 401;
          } catch {
            return false;
          }
        },
        30_000,
        'server start',
      );
    },
    kill() {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      });
    },
  };
}
