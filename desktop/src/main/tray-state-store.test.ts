import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedOutTrayState, type TrayState } from '@avail/shared/desktop/desktop-bridge.ts';
import { readBytes, removeFile, writePrivateFile } from './private-file.ts';
import { createTrayStateStore } from './tray-state-store.ts';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'avail-tray-state-'));
  file = join(dir, 'tray-state.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function store(log = vi.fn()) {
  return createTrayStateStore({ readFile: readBytes, writeFile: (f, d) => writePrivateFile(f, d), removeFile, file, log });
}

const live: TrayState = {
  signedIn: true,
  connection: 'offline',
  pendingCount: 3,
  timezone: 'Europe/Brussels',
  windows: [{ start: 1_781_528_400_000, end: 1_781_530_200_000 }],
  link: 'https://avail.example.com/ana',
  freeTimesText: 'Hi,\n\nHere are my next free times (Europe/Brussels):\n…',
  computedAt: 1_781_527_800_000,
  proposals: [{ id: 'p-1', name: 'Vera Visitor', start: 1_781_600_000_000, end: 1_781_601_800_000 }],
};

describe('tray state store (issue 25)', () => {
  it('keeps the last signed-in state in a 0600 file and restores it as "syncing", without the visitors\' names', async () => {
    const a = store();
    a.remember(live);
    await a.settled();
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('Vera');
    expect(text).not.toContain('p-1');

    const restored = await store().load();
    expect(restored).toEqual({
      signedIn: true,
      connection: 'syncing',
      pendingCount: 0,
      timezone: 'Europe/Brussels',
      windows: live.windows,
      link: live.link,
      freeTimesText: live.freeTimesText,
      computedAt: live.computedAt,
      syncing: true,
    });
  });

  it('a signed-out report removes it: the next start says "Not signed in"', async () => {
    const a = store();
    a.remember(live);
    a.remember(signedOutTrayState(1));
    await a.settled();
    expect(await store().load()).toBeNull();
  });

  it('a report that differs only in its computation instant does not rewrite the file', async () => {
    const writes: string[] = [];
    const a = createTrayStateStore({ readFile: readBytes, writeFile: async (f, d) => void writes.push(d), removeFile, file });
    await a.load();
    a.remember(live);
    a.remember({ ...live, computedAt: live.computedAt + 60_000 });
    a.remember({ ...live, computedAt: live.computedAt + 120_000, pendingCount: 0, connection: 'online' }); // not stored fields either
    await a.settled();
    expect(writes).toHaveLength(1);
    a.remember({ ...live, computedAt: live.computedAt + 180_000, windows: [] });
    await a.settled();
    expect(writes).toHaveLength(2);
  });

  it('a "syncing" report (no data read yet) never overwrites the known windows', async () => {
    const a = store();
    a.remember(live);
    a.remember({ ...live, syncing: true, windows: [], freeTimesText: null });
    await a.settled();
    expect((await store().load())?.windows).toEqual(live.windows);
  });

  it('no file, a broken file or a tampered one: nothing restored (the tray starts signed out), logged without throwing', async () => {
    expect(await store().load()).toBeNull();
    const log = vi.fn();
    await writeFile(file, '{not json');
    expect(await store(log).load()).toBeNull();
    await writeFile(file, JSON.stringify({ version: 1, signedIn: true, timezone: 'Mars/Olympus', windows: [], link: null, freeTimesText: null, computedAt: 1 }));
    expect(await store(log).load()).toBeNull();
    await writeFile(file, JSON.stringify({ version: 1, signedIn: true, timezone: 'UTC', windows: [], link: 'javascript:alert(1)', freeTimesText: null, computedAt: 1 }));
    expect(await store(log).load()).toBeNull();
    expect(log).toHaveBeenCalledTimes(3);
  });

  it('a failed write is logged and the next state is written', async () => {
    const log = vi.fn();
    let fail = true;
    const s = createTrayStateStore({
      readFile: readBytes,
      writeFile: async (f, d) => {
        if (fail) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
        await writePrivateFile(f, d);
      },
      removeFile,
      file,
      log,
    });
    s.remember(live);
    await s.settled();
    expect(log).toHaveBeenCalledWith(`tray state: could not write ${file} (ENOSPC)`);
    fail = false;
    s.remember(live);
    await s.settled();
    expect((await store().load())?.link).toBe(live.link);
  });
});
