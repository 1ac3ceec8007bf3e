import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmod, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBytes, removeFile, writePrivateFile } from './private-file.ts';
import { createTokenStore, type SafeStorageLike } from './token-store.ts';

const TOKEN = 'k3Y_9tGd1cW0bq2VzqXr4f8Hh6JtYl0aP3uN5mE7sDg';

/**
 * A safeStorage stand-in that really transforms the bytes (a "v10" header like Chromium's, then
 * the UTF-8 bytes XORed with a key) and fails to decrypt anything without the header — like the
 * real one with a foreign or damaged file.
 */
function fakeSafeStorage(opts: { available?: boolean; backend?: string } = {}): SafeStorageLike & { calls: string[] } {
  const key = 0x5a;
  const calls: string[] = [];
  return {
    calls,
    isEncryptionAvailable: () => opts.available ?? true,
    getSelectedStorageBackend: () => opts.backend ?? 'gnome_libsecret',
    encryptString(plain) {
      calls.push('encrypt');
      const body = Buffer.from(plain, 'utf8').map((b) => b ^ key);
      return Buffer.concat([Buffer.from('v10'), body]);
    },
    decryptString(encrypted) {
      calls.push('decrypt');
      if (encrypted.subarray(0, 3).toString() !== 'v10') throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(encrypted.subarray(3).map((b) => b ^ key)).toString('utf8');
    },
  };
}

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'avail-token-'));
  file = join(dir, 'session-token.bin');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The server origin desktop-config.json names (any process of the same user can edit it). */
let configOrigin = 'https://avail.example.com';
beforeEach(() => {
  configOrigin = 'https://avail.example.com';
});

function store(safeStorage: SafeStorageLike, platform = 'linux', logs: string[] = []) {
  return createTokenStore({ safeStorage, readFile: readBytes, writeFile: writePrivateFile, unlink: removeFile, file, platform, log: (m) => logs.push(m), currentOrigin: () => configOrigin });
}

describe('token store with an OS keyring', () => {
  it('round-trips through safeStorage: encrypted on disk, decrypted by a fresh store (restart)', async () => {
    const safe = fakeSafeStorage();
    expect(store(safe).persistence()).toBe('os');
    expect(await store(safe).save(TOKEN)).toBe('os');

    const onDisk = await readFile(file);
    expect(onDisk.subarray(0, 3).toString()).toBe('v10');
    expect(onDisk.toString('utf8')).not.toContain(TOKEN);
    expect(onDisk.toString('latin1')).not.toContain(TOKEN);

    const restarted = store(safe);
    expect(await restarted.load()).toBe(TOKEN);
    expect(safe.calls).toEqual(['encrypt', 'decrypt']);
  });

  it.skipIf(process.platform === 'win32')('writes the file with mode 0600, even over an older 0644 file', async () => {
    await writeFile(file, 'old');
    await chmod(file, 0o644);
    await store(fakeSafeStorage()).save(TOKEN);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // No temporary file left beside it.
    expect(await readdir(dir)).toEqual(['session-token.bin']);
  });

  it('a sign-out right after a sign-in wins: calls run in order, so no token survives, now or after a restart', async () => {
    const safe = fakeSafeStorage();
    const s = store(safe);
    await Promise.all([s.save(TOKEN), s.clear()]);
    expect(await s.load()).toBeNull();
    expect(await store(safe).load()).toBeNull();
    expect(await readdir(dir)).toEqual([]);
    // And the other order keeps the newer sign-in.
    await Promise.all([s.clear(), s.save(TOKEN)]);
    expect(await store(safe).load()).toBe(TOKEN);
  });

  it('no file → null; clear removes the file and the memory copy', async () => {
    const s = store(fakeSafeStorage());
    expect(await s.load()).toBeNull();
    await s.save(TOKEN);
    await s.clear();
    expect(await readdir(dir)).toEqual([]);
    expect(await s.load()).toBeNull();
    await s.clear(); // clearing twice is fine
  });

  it('a corrupt file is treated as signed out and removed; the log never holds the token', async () => {
    await writeFile(file, Buffer.from('garbage that is not ours'));
    const logs: string[] = [];
    expect(await store(fakeSafeStorage(), 'linux', logs).load()).toBeNull();
    expect(await readdir(dir)).toEqual([]);
    expect(logs.join('\n')).toMatch(/could not be decrypted/);

    // A file that decrypts to something that is not a token (binary) is corrupt too.
    const safe = fakeSafeStorage();
    await writeFile(file, Buffer.concat([Buffer.from('v10'), Buffer.from([0x5a ^ 0x00, 0x5a ^ 0x01, 0x5a ^ 0x0a])]));
    expect(await store(safe, 'linux', logs).load()).toBeNull();
    expect(await readdir(dir)).toEqual([]);

    await store(safe, 'linux', logs).save(TOKEN);
    await store(safe, 'linux', logs).load();
    expect(logs.join('\n')).not.toContain(TOKEN);
  });

  it('basic_text matters only on Linux: macOS and Windows keep "os"', async () => {
    const safe = fakeSafeStorage({ backend: 'basic_text' });
    expect(store(safe, 'darwin').persistence()).toBe('os');
    expect(store(safe, 'win32').persistence()).toBe('os');
    expect(store(safe, 'linux').persistence()).toBe('session');
  });

  it('refuses an empty token', async () => {
    await expect(store(fakeSafeStorage()).save('')).rejects.toThrow(TypeError);
  });
});

describe('the token is bound to its server (issue 27 review)', () => {
  it('a token saved for server A is not given out once the config names server B: removed, memory and file', async () => {
    const safe = fakeSafeStorage();
    const logs: string[] = [];
    const s = store(safe, 'linux', logs);
    await s.save(TOKEN);
    expect(await s.load()).toBe(TOKEN);
    configOrigin = 'https://evil.example'; // desktop-config.json edited while the app runs
    expect(await s.load()).toBeNull();
    expect(await readdir(dir)).toEqual([]);
    configOrigin = 'https://avail.example.com';
    expect(await s.load()).toBeNull(); // gone, not merely hidden
    expect(logs.join('\n')).toMatch(/another server/);
    expect(logs.join('\n')).not.toContain(TOKEN);
  });

  it('after a restart with the config naming server B: null, and the file is removed', async () => {
    const safe = fakeSafeStorage();
    await store(safe).save(TOKEN);
    configOrigin = 'https://evil.example';
    expect(await store(safe).load()).toBeNull();
    expect(await readdir(dir)).toEqual([]);
  });

  it('the origin is inside the encrypted blob, not beside it', async () => {
    await store(fakeSafeStorage()).save(TOKEN);
    const onDisk = await readFile(file);
    expect(onDisk.toString('latin1')).not.toContain('avail.example.com');
  });

  it('a file of the older format (the bare token) is accepted once for the current server and rewritten bound to it', async () => {
    const safe = fakeSafeStorage();
    await writeFile(file, safe.encryptString(TOKEN));
    expect(await store(safe).load()).toBe(TOKEN);
    expect(JSON.parse(safe.decryptString(await readFile(file)))).toEqual({ origin: 'https://avail.example.com', token: TOKEN });
    configOrigin = 'https://evil.example';
    expect(await store(safe).load()).toBeNull();
  });

  it('session only (no keyring): the memory copy is not given to another server either', async () => {
    const s = store(fakeSafeStorage({ available: false }));
    await s.save(TOKEN);
    configOrigin = 'https://evil.example';
    expect(await s.load()).toBeNull();
    configOrigin = 'https://avail.example.com';
    expect(await s.load()).toBeNull();
  });
});

describe('token store without protection → session only', () => {
  it('encryption unavailable: persistence "session", the token lives in memory, nothing on disk', async () => {
    const safe = fakeSafeStorage({ available: false });
    const s = store(safe);
    expect(s.persistence()).toBe('session');
    expect(await s.save(TOKEN)).toBe('session');
    expect(await s.load()).toBe(TOKEN);
    expect(await readdir(dir)).toEqual([]);
    expect(safe.calls).toEqual([]);
    // A restart forgets it.
    expect(await store(safe).load()).toBeNull();
  });

  it('Linux basic_text backend (no keyring) is treated as unavailable', async () => {
    const safe = fakeSafeStorage({ available: true, backend: 'basic_text' });
    const s = store(safe, 'linux');
    expect(s.persistence()).toBe('session');
    expect(await s.save(TOKEN)).toBe('session');
    expect(await readdir(dir)).toEqual([]);
    expect(safe.calls).toEqual([]);
    expect(await s.load()).toBe(TOKEN);
  });

  it('saving in session mode removes a stale file of an earlier keyring session; clear forgets memory', async () => {
    await store(fakeSafeStorage()).save('older-token');
    expect(await readdir(dir)).toEqual(['session-token.bin']);
    const s = store(fakeSafeStorage({ backend: 'basic_text' }), 'linux');
    await s.save(TOKEN);
    expect(await readdir(dir)).toEqual([]);
    await s.clear();
    expect(await s.load()).toBeNull();
  });
});
