/**
 * A real Radicale CalDAV server for tests: own temp dir, plain htpasswd users, loopback port.
 * `startRadicale({ users: { alice: 'secret' } })` → { url, stop }; `rights` for per-collection
 * permissions (e.g. a read-only calendar). Requests can be counted by the
 * caller through its own fetch wrapper; Radicale itself is untouched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface RadicaleServer {
  /** Base URL, e.g. http://127.0.0.1:5232/ */
  url: string;
  port: number;
  dir: string;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function waitUntilAnswering(url: string, child: ChildProcess, stderr: () => string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`radicale exited with ${child.exitCode}: ${stderr()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`radicale did not answer within ${timeoutMs} ms: ${stderr()}`);
}

export interface RadicaleOptions {
  users: Record<string, string>;
  /**
   * Radicale `from_file` rights (INI sections of user / collection / permissions, first match
   * wins; https://radicale.org/v3.html#authentication-and-rights). Default: `owner_only`.
   */
  rights?: string;
}

export async function startRadicale(options: RadicaleOptions): Promise<RadicaleServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'avail-radicale-'));
  const usersFile = path.join(dir, 'users');
  writeFileSync(usersFile, Object.entries(options.users).map(([u, p]) => `${u}:${p}`).join('\n') + '\n');
  const storage = path.join(dir, 'collections');
  const rightsFile = path.join(dir, 'rights');
  if (options.rights) writeFileSync(rightsFile, options.rights);
  const port = await freePort();
  const child = spawn(
    'radicale',
    [
      '--config', '',
      '--server-hosts', `127.0.0.1:${port}`,
      '--auth-type', 'htpasswd',
      '--auth-htpasswd-filename', usersFile,
      '--auth-htpasswd-encryption', 'plain',
      '--storage-filesystem-folder', storage,
      ...(options.rights ? ['--rights-type', 'from_file', '--rights-file', rightsFile] : ['--rights-type', 'owner_only']),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errText = '';
  child.stderr?.on('data', (d: Buffer) => {
    errText = (errText + d.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitUntilAnswering(url, child, () => errText);
  } catch (err) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    port,
    dir,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
