import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesktopCommand } from '@avail/shared/desktop/desktop-bridge.ts';
import { readBytes, writePrivateFile } from './private-file.ts';
import { createTrayCommandQueue, MAX_QUEUED_COMMANDS, type DroppedReason, type QueuedCommand } from './tray-command-queue.ts';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'avail-tray-commands-'));
  file = join(dir, 'tray-commands.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const AT = 1_781_527_800_000;

/** A queue over the real file, delivering to `delivered` while `window.open`; ids c-1, c-2, … per queue. */
function queue(window = { open: true }, log = vi.fn(), prefix = 'c') {
  const delivered: DesktopCommand[] = [];
  const dropped: Array<{ command: QueuedCommand; reason: DroppedReason }> = [];
  let n = 0;
  const q = createTrayCommandQueue({
    readFile: readBytes,
    writeFile: (f, d) => writePrivateFile(f, d),
    file,
    deliver: (c) => {
      if (!window.open) return false;
      delivered.push(c);
      return true;
    },
    newId: () => `${prefix}-${++n}`,
    dropped: (command, reason) => dropped.push({ command, reason }),
    now: () => AT + 5_000,
    log,
  });
  return { q, delivered, dropped, window, log };
}

const busy = { type: 'busy', duration: { minutes: 30 }, at: AT } as const;
const confirm = { type: 'proposal', id: 'p-1', action: 'confirm' } as const;

describe('tray command queue (issue 25)', () => {
  it('while the device database is closed, commands wait; when it opens they are delivered in order, marked queued, and kept until acknowledged', async () => {
    const { q, delivered } = queue();
    await q.load();
    expect(q.submit(busy)).toBe(true);
    expect(q.submit(confirm)).toBe(true);
    expect(delivered).toEqual([]);
    expect(q.size()).toBe(2);
    q.ready('u-1');
    expect(delivered).toEqual([
      { ...busy, commandId: 'c-1', queued: true },
      { ...confirm, commandId: 'c-2', queued: true },
    ]);
    // Handed over, not yet carried out: still waiting.
    expect(q.size()).toBe(2);
    q.done('c-1');
    q.done('c-2');
    expect(q.size()).toBe(0);
    // Ready: the next one goes straight through (the renderer carries it out at once).
    q.submit({ ...busy, duration: { restOfToday: true } });
    expect(delivered.at(-1)).toEqual({ ...busy, duration: { restOfToday: true }, commandId: 'c-3' });
    // A second "ready" of the same page does not send what it already has.
    q.ready('u-1');
    expect(delivered).toHaveLength(3);
    await q.settled();
  });

  it('a page reload between the hand-over and the acknowledgement loses nothing: the next "ready" delivers it again', async () => {
    const { q, delivered } = queue();
    await q.load();
    q.ready('u-1');
    q.submit(busy);
    expect(delivered).toEqual([{ ...busy, commandId: 'c-1' }]);
    q.notReady(); // reload before the renderer wrote it
    q.ready('u-1');
    expect(delivered.at(-1)).toEqual({ ...busy, commandId: 'c-1', queued: true });
    q.done('c-1');
    q.notReady();
    q.ready('u-1');
    expect(delivered).toHaveLength(2);
    await q.settled();
  });

  it('a quit before the acknowledgement loses nothing: the next start delivers what the last run kept (file 0600, no names)', async () => {
    const first = queue();
    await first.q.load();
    first.q.ready('u-1');
    first.q.submit(busy); // handed over, the app quits before the renderer acknowledges it
    first.q.notReady();
    first.q.submit(confirm);
    await first.q.settled();
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).not.toMatch(/name/);

    const next = queue(undefined, undefined, 'n');
    await next.q.load();
    expect(next.q.size()).toBe(2);
    next.q.ready('u-1');
    expect(next.delivered).toEqual([
      { ...busy, commandId: 'c-1', queued: true },
      { ...confirm, commandId: 'c-2', queued: true },
    ]);
    next.q.done('c-1');
    next.q.done('c-2');
    await next.q.settled();
    // Acknowledged: nothing is delivered twice on the start after.
    const third = queue();
    await third.q.load();
    expect(third.q.size()).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 2, commands: [] });
  });

  it('a sign-out reports every waiting command as failed and empties the file: the next account never runs them', async () => {
    const first = queue();
    await first.q.load();
    first.q.ready('u-1');
    first.q.notReady(); // page reloading
    first.q.submit(busy);
    first.q.submit(confirm);
    first.q.signedOut(); // the reload ended in a 401
    expect(first.dropped).toEqual([
      { command: { ...busy, commandId: 'c-1' }, reason: 'signed-out' },
      { command: { ...confirm, commandId: 'c-2' }, reason: 'signed-out' },
    ]);
    expect(first.q.size()).toBe(0);
    first.q.ready('u-2');
    expect(first.delivered).toEqual([]);
    await first.q.settled();
    const next = queue();
    await next.q.load();
    next.q.ready('u-2');
    expect(next.delivered).toEqual([]);
  });

  it('an owner not verified: waiting commands are reported as failed for that reason, not left waiting forever', async () => {
    const { q, dropped } = queue();
    await q.load();
    q.submit(busy);
    q.signedOut('unverified');
    expect(dropped).toEqual([{ command: { ...busy, commandId: 'c-1' }, reason: 'unverified' }]);
    expect(q.size()).toBe(0);
    await q.settled();
  });

  it('a command kept for another account is dropped with a notification at delivery; one clicked before any account reported goes to the first', async () => {
    const first = queue();
    await first.q.load();
    first.q.submit(busy); // no account known yet (the first page is loading)
    first.q.ready('u-1');
    first.q.notReady();
    first.q.submit(confirm); // u-1's
    await first.q.settled();
    expect(JSON.parse(await readFile(file, 'utf8')).commands.map((c: { userId: string }) => c.userId)).toEqual(['u-1', 'u-1']);

    // The next start, another account's renderer reports (u-1 signed out without this app knowing).
    const next = queue();
    await next.q.load();
    next.q.ready('u-2');
    expect(next.delivered).toEqual([]);
    expect(next.dropped.map((d) => d.reason)).toEqual(['other-account', 'other-account']);
    expect(next.q.size()).toBe(0);
    await next.q.settled();
  });

  it('a notification or "Open in Avail" click while the page loads shows its route once the page is ready (the latest click wins)', async () => {
    const { q, delivered } = queue();
    await q.load();
    q.navigate({ type: 'navigate', route: '/app/dashboard#proposal-p-1' });
    q.navigate({ type: 'navigate', route: '/app/dashboard#proposal-p-2' });
    q.submit(busy);
    expect(delivered).toEqual([]);
    q.ready('u-1');
    expect(delivered).toEqual([{ ...busy, commandId: 'c-1', queued: true }, { type: 'navigate', route: '/app/dashboard#proposal-p-2' }]);
    q.navigate({ type: 'navigate', route: '/app/dashboard' });
    expect(delivered.at(-1)).toEqual({ type: 'navigate', route: '/app/dashboard' });
    await q.settled();
  });

  it('a broken or tampered file delivers only valid commands (a click instant more than a minute ahead is refused)', async () => {
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        commands: [busy, { type: 'navigate', route: 'https://evil.example' }, { type: 'busy', duration: { minutes: 999 }, at: AT }, { ...busy, at: AT + 5_000 + 61_000 }],
      }),
    );
    const { q, delivered, log } = queue();
    await q.load();
    q.ready('u-1');
    expect(delivered).toEqual([{ ...busy, commandId: 'c-1', queued: true }]);
    expect(log).toHaveBeenCalledWith(`tray commands: 3 invalid command(s) in ${file} ignored`);
    await writeFile(file, 'not json');
    const other = queue();
    await other.q.load();
    expect(other.q.size()).toBe(0);
    await q.settled();
  });

  it(`refuses a command only past ${MAX_QUEUED_COMMANDS} waiting, and tells the owner`, async () => {
    const { q, log, dropped } = queue();
    for (let i = 0; i < MAX_QUEUED_COMMANDS; i++) expect(q.submit({ ...busy, at: AT + i })).toBe(true);
    expect(q.submit(busy)).toBe(false);
    expect(q.size()).toBe(MAX_QUEUED_COMMANDS);
    expect(log).toHaveBeenCalledWith('tray commands: too many waiting; this one was refused');
    expect(dropped).toEqual([{ command: busy, reason: 'too-many' }]);
    await q.settled();
  });
});
