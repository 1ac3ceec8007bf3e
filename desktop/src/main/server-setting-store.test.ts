import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writePrivateFile } from './private-file.ts';
import { createServerSettingStore } from './server-setting-store.ts';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'avail-config-'));
  file = join(dir, 'desktop-config.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const make = (defaultOrigin = 'https://avail.example.com') =>
  createServerSettingStore({ readFile: (f) => readFile(f), writeFile: (f, d) => writePrivateFile(f, d), file, defaultOrigin });

describe('server setting store', () => {
  it('first run: the build-time default, editable, not confirmed', async () => {
    const s = make();
    expect(s.currentOrigin()).toBe('https://avail.example.com');
    expect(await s.get()).toEqual({ origin: 'https://avail.example.com', editable: true, confirmed: false });
  });

  it('setServerOrigin normalises, confirms and persists across restarts', async () => {
    const s = make();
    expect(await s.setServerOrigin('  Avail.Example.ORG/ ')).toBe('https://avail.example.org');
    expect(await s.get()).toEqual({ origin: 'https://avail.example.org', editable: true, confirmed: true });
    expect(s.currentOrigin()).toBe('https://avail.example.org');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ serverOrigin: 'https://avail.example.org', confirmed: true });
    expect(await make().get()).toEqual({ origin: 'https://avail.example.org', editable: true, confirmed: true });
  });

  it('creates the data folder when it does not exist yet (first run)', async () => {
    file = join(dir, 'not-yet', 'desktop-config.json');
    expect(await make().setServerOrigin('https://avail.example.org')).toBe('https://avail.example.org');
    expect(JSON.parse(await readFile(file, 'utf8')).serverOrigin).toBe('https://avail.example.org');
  });

  it('keeps a port and http for a local server', async () => {
    expect(await make().setServerOrigin('http://localhost:3000')).toBe('http://localhost:3000');
  });

  it('refuses what is not an http(s) origin with the user-facing message, writing nothing', async () => {
    const s = make();
    for (const bad of ['', 'ftp://x.example', 'https://a.example/path', 'https://user:pw@a.example', 'javascript:alert(1)']) {
      await expect(s.setServerOrigin(bad)).rejects.toThrow('Enter the address of your Avail server, like https://avail.example.com');
    }
    expect(await readdir(dir)).toEqual([]);
    expect((await s.get()).confirmed).toBe(false);
  });

  it('the menu-bar option (macOS tray text): off by default, kept across restarts, alongside the server', async () => {
    const s = make();
    await s.get();
    expect(s.showNextFreeInMenuBar()).toBe(false);
    await s.setShowNextFreeInMenuBar(true);
    expect(s.showNextFreeInMenuBar()).toBe(true);
    // Unconfirmed server: only the option is written (the build default stays the default).
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ showNextFreeInMenuBar: true });
    const restarted = make();
    expect(await restarted.get()).toEqual({ origin: 'https://avail.example.com', editable: true, confirmed: false });
    expect(restarted.showNextFreeInMenuBar()).toBe(true);
    // Confirming a server keeps the option; turning the option off keeps the server.
    await restarted.setServerOrigin('https://avail.example.org');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ serverOrigin: 'https://avail.example.org', confirmed: true, showNextFreeInMenuBar: true });
    await restarted.setShowNextFreeInMenuBar(false);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ serverOrigin: 'https://avail.example.org', confirmed: true });
    const again = make();
    expect((await again.get()).origin).toBe('https://avail.example.org');
    expect(again.showNextFreeInMenuBar()).toBe(false);
  });

  it('a corrupt or foreign config falls back to the default, unconfirmed', async () => {
    await writeFile(file, '{ not json');
    expect(await make().get()).toEqual({ origin: 'https://avail.example.com', editable: true, confirmed: false });
    await writeFile(file, JSON.stringify({ serverOrigin: 'file:///etc', confirmed: true }));
    expect(await make().get()).toEqual({ origin: 'https://avail.example.com', editable: true, confirmed: false });
  });
});

describe('server setting store: changes at the same time (issue 27 review)', () => {
  it('the menu-bar option reads as set right after the call, before its write lands', async () => {
    const s = make();
    await s.get();
    const pending = s.setShowNextFreeInMenuBar(true);
    expect(s.showNextFreeInMenuBar()).toBe(true);
    await pending;
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ showNextFreeInMenuBar: true });
  });

  it('a server change and a menu-bar click at once: both are in the file, whichever write is slower', async () => {
    // The first write takes longer than the second: unserialised, the older content would land last.
    let writes = 0;
    const slowFirst = (f: string, d: string) => new Promise<void>((resolve, reject) => setTimeout(() => writePrivateFile(f, d).then(resolve, reject), writes++ === 0 ? 60 : 5));
    const s = createServerSettingStore({ readFile: (f) => readFile(f), writeFile: slowFirst, file, defaultOrigin: 'https://avail.example.com' });
    await s.get();
    await Promise.all([s.setServerOrigin('https://avail.example.org'), s.setShowNextFreeInMenuBar(true)]);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ serverOrigin: 'https://avail.example.org', confirmed: true, showNextFreeInMenuBar: true });
    expect(s.currentOrigin()).toBe('https://avail.example.org');
    expect(s.showNextFreeInMenuBar()).toBe(true);
    const restarted = make();
    expect((await restarted.get()).origin).toBe('https://avail.example.org');
    expect(restarted.showNextFreeInMenuBar()).toBe(true);
  });

  it('both at once before the file was ever read: both kept', async () => {
    const s = make();
    await Promise.all([s.setShowNextFreeInMenuBar(true), s.setServerOrigin('https://avail.example.org')]);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ serverOrigin: 'https://avail.example.org', confirmed: true, showNextFreeInMenuBar: true });
  });
});
