import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesktopCommand } from '@avail/shared/desktop/desktop-bridge.ts';
import { readBytes, writePrivateFile } from './private-file.ts';
import { createTrayCommandQueue, MAX_QUEUED_COMMANDS } from './tray-command-queue.ts';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'avail-tray-commands-'));
  file = join(dir, 'tray-commands.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A queue over the real file, delivering to `delivered` while `window.open`. */
function queue(window = { open: true }, log = vi.fn()) {
  const delivered: DesktopCommand[] = [];
  const q = createTrayCommandQueue({
    readFile: readBytes,
    writeFile: (f, d) => writePrivateFile(f, d),
    file,
    deliver: (c) => {
      if (!window.open) return false;
      delivered.push(c);
      return true;
    },
    log,
  });
  return { q, delivered, window, log };
}

const AT = 1_781_527_800_000;
const busy = { type: 'busy', duration: { minutes: 30 }, at: AT } as const;
const confirm = { type: 'proposal', id: 'p-1', action: 'confirm' } as const;

describe('tray command queue (issue 25)', () => {
  it('while the device database is closed, commands wait; when it opens they are delivered in order, marked queued', async () => {
    const { q, delivered } = queue();
    await q.load();
    expect(q.submit(busy)).toBe(true);
    expect(q.submit(confirm)).toBe(true);
    expect(delivered).toEqual([]);
    expect(q.size()).toBe(2);
    q.ready();
    expect(delivered).toEqual([
      { ...busy, queued: true },
      { ...confirm, queued: true },
    ]);
    expect(q.size()).toBe(0);
    // Ready: the next one goes straight through (the renderer carries it out at once).
    q.submit({ ...busy, duration: { restOfToday: true } });
    expect(delivered.at(-1)).toEqual({ ...busy, duration: { restOfToday: true } });
    await q.settled();
  });

  it('a quit before delivery loses nothing: the next start delivers what the last run kept (file 0600, no names)', async () => {
    const first = queue();
    await first.q.load();
    first.q.submit(busy);
    first.q.submit(confirm);
    await first.q.settled();
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const next = queue();
    await next.q.load();
    expect(next.q.size()).toBe(2);
    next.q.ready();
    expect(next.delivered).toEqual([
      { ...busy, queued: true },
      { ...confirm, queued: true },
    ]);
    await next.q.settled();
    // Delivered: nothing is delivered twice on the start after.
    const third = queue();
    await third.q.load();
    expect(third.q.size()).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 1, commands: [] });
  });

  it('a page reload (not ready) or a window gone keeps new commands until the next "ready"', async () => {
    const { q, delivered, window } = queue();
    await q.load();
    q.ready();
    q.notReady();
    q.submit(busy);
    expect(delivered).toEqual([]);
    q.ready();
    expect(delivered).toEqual([{ ...busy, queued: true }]);
    // The window disappears without a notice: the command is kept, not lost.
    window.open = false;
    q.submit(confirm);
    expect(q.size()).toBe(1);
    window.open = true;
    q.ready();
    expect(delivered.at(-1)).toEqual({ ...confirm, queued: true });
    await q.settled();
  });

  it('a notification or "Open in Avail" click while the page loads shows its route once the page is ready (the latest click wins)', async () => {
    const { q, delivered } = queue();
    await q.load();
    q.navigate({ type: 'navigate', route: '/app/dashboard#proposal-p-1' });
    q.navigate({ type: 'navigate', route: '/app/dashboard#proposal-p-2' });
    q.submit(busy);
    expect(delivered).toEqual([]);
    q.ready();
    expect(delivered).toEqual([{ ...busy, queued: true }, { type: 'navigate', route: '/app/dashboard#proposal-p-2' }]);
    q.navigate({ type: 'navigate', route: '/app/dashboard' });
    expect(delivered.at(-1)).toEqual({ type: 'navigate', route: '/app/dashboard' });
    await q.settled();
  });

  it('a broken or tampered file delivers only valid commands', async () => {
    await writeFile(file, JSON.stringify({ version: 1, commands: [busy, { type: 'navigate', route: 'https://evil.example' }, { type: 'busy', duration: { minutes: 999 }, at: AT }] }));
    const { q, delivered, log } = queue();
    await q.load();
    q.ready();
    expect(delivered).toEqual([{ ...busy, queued: true }]);
    expect(log).toHaveBeenCalledWith(`tray commands: 2 invalid command(s) in ${file} ignored`);
    await writeFile(file, 'not json');
    const other = queue();
    await other.q.load();
    expect(other.q.size()).toBe(0);
    await q.settled();
  });

  it(`refuses a command only past ${MAX_QUEUED_COMMANDS} waiting, and says so`, async () => {
    const { q, log } = queue();
    for (let i = 0; i < MAX_QUEUED_COMMANDS; i++) expect(q.submit({ ...busy, at: AT + i })).toBe(true);
    expect(q.submit(busy)).toBe(false);
    expect(q.size()).toBe(MAX_QUEUED_COMMANDS);
    expect(log).toHaveBeenCalledWith('tray commands: too many waiting; this one was refused');
    await q.settled();
  });
});
