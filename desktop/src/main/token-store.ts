/**
 * The sign-in token of the desktop app, kept with Electron's `safeStorage`
 * (https://www.electronjs.org/docs/latest/api/safe-storage): encrypted with a key held by the OS
 * (macOS Keychain, Windows DPAPI, libsecret/KWallet on Linux) into one file in the app's data
 * folder, mode 0600.
 *
 * Where the OS offers no protection — `isEncryptionAvailable()` is false, or on Linux the selected
 * backend is `basic_text` (Chromium's hard-coded password: "encrypted" but readable by anyone who
 * can read the file) — the token stays in memory only and persistence is `'session'`: nothing is
 * written, and the owner signs in again after a restart (the UI says so).
 *
 * The token is bound to the server it was issued by: the encrypted blob holds
 * `{"origin":"https://…","token":"…"}`, and {@link TokenStore.load} gives the token only while the
 * current server origin (desktop-config.json, which any process of the same user can edit) is that
 * origin — else it is removed, so a config naming another server never receives it. A file of the
 * older format (the bare token) is accepted once for the current origin and rewritten with it.
 *
 * The token is never logged: messages passed to `log` name the file and the error code only.
 */
import type { TokenPersistence } from '@avail/shared/desktop/desktop-bridge.ts';
import { PRIVATE_FILE_MODE, isMissing } from './private-file.ts';

/** The part of Electron's `safeStorage` the store uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only (https://www.electronjs.org/docs/latest/api/safe-storage#safestoragegetselectedstoragebackend-linux). */
  getSelectedStorageBackend?(): string;
}

export interface TokenStoreDeps {
  safeStorage: SafeStorageLike;
  /** @throws an error with code ENOENT when the file does not exist. */
  readFile(file: string): Promise<Buffer>;
  /** Must leave the file with `options.mode` (see `writePrivateFile`). */
  writeFile(file: string, data: Buffer, options: { mode: number }): Promise<void>;
  /** Must not fail for a missing file. */
  unlink(file: string): Promise<void>;
  /** Absolute path of the token file, e.g. `<userData>/session-token.bin`. */
  file: string;
  /** The server origin the app talks to now (main.ts: `serverSettings.currentOrigin()`); a saved token is bound to it. */
  currentOrigin(): string;
  /** Default `process.platform`; the `basic_text` check applies on 'linux'. */
  platform?: string;
  /** Warnings (never contains the token). Default: none. */
  log?: (message: string) => void;
}

export interface TokenStore {
  /** `'os'` when the OS keychain protects the file, else `'session'` (memory only). Call after app `ready`. */
  persistence(): TokenPersistence;
  /**
   * The stored token, or null: none, unreadable or corrupt (a corrupt file is removed), or saved for
   * another server than `currentOrigin()` (then removed, memory and file).
   */
  load(): Promise<string | null>;
  /** Keeps `token` for `currentOrigin()` (encrypted on disk, or in memory); resolves to where it was kept. @throws fs/encryption errors in 'os' mode. */
  save(token: string): Promise<TokenPersistence>;
  /** Forgets the token: memory and file. */
  clear(): Promise<void>;
}

/** Linux backends that do not protect anything (Chromium's fixed password; not yet known before `ready`). */
const UNPROTECTED_LINUX_BACKENDS = new Set(['basic_text', 'unknown']);

/**
 * Creates the token store. Nothing is read until {@link TokenStore.load}; the protection is
 * checked on every call (it is only known after the app's `ready` event).
 */
export function createTokenStore(deps: TokenStoreDeps): TokenStore {
  const platform = deps.platform ?? process.platform;
  const log = deps.log ?? (() => undefined);
  let memory: BoundToken | null = null;

  function isProtected(): boolean {
    try {
      if (!deps.safeStorage.isEncryptionAvailable()) return false;
      if (platform === 'linux') {
        const backend = deps.safeStorage.getSelectedStorageBackend?.() ?? 'unknown';
        if (UNPROTECTED_LINUX_BACKENDS.has(backend)) return false;
      }
      return true;
    } catch {
      return false;
    }
  }

  async function removeQuietly(): Promise<void> {
    try {
      await deps.unlink(deps.file);
    } catch (e) {
      log(`token store: could not remove ${deps.file} (${codeOf(e)})`);
    }
  }

  // Operations run one at a time, in call order: a save racing a clear (sign-in then sign-out in
  // quick succession) can never rename its file after the clear removed it.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const next = queue.then(op, op);
    queue = next.catch(() => undefined);
    return next;
  };

  const encrypt = (entry: BoundToken): Buffer => deps.safeStorage.encryptString(JSON.stringify({ origin: entry.origin, token: entry.token }));

  /** Forgets a token saved for another server than the current one. */
  async function dropForeign(): Promise<null> {
    memory = null;
    log('token store: the stored token belongs to another server than the current one; removed');
    await removeQuietly();
    return null;
  }

  const store: TokenStore = {
    persistence: () => (isProtected() ? 'os' : 'session'),

    async load() {
      const origin = deps.currentOrigin();
      if (!isProtected()) {
        if (memory !== null && memory.origin !== origin) memory = null;
        return memory?.token ?? null;
      }
      if (memory !== null) return memory.origin === origin ? memory.token : dropForeign();
      let bytes: Buffer;
      try {
        bytes = await deps.readFile(deps.file);
      } catch (e) {
        if (!isMissing(e)) log(`token store: could not read ${deps.file} (${codeOf(e)})`);
        return null;
      }
      let text: string;
      try {
        text = deps.safeStorage.decryptString(bytes);
      } catch {
        text = '';
      }
      const entry = parseBlob(text);
      if (!entry) {
        log(`token store: ${deps.file} could not be decrypted; treated as signed out and removed`);
        await removeQuietly();
        return null;
      }
      if (entry.origin === null) {
        // The older format (a bare token): accepted once for the server of now, and bound to it.
        memory = { token: entry.token, origin };
        try {
          await deps.writeFile(deps.file, encrypt(memory), { mode: PRIVATE_FILE_MODE });
        } catch (e) {
          log(`token store: could not rewrite ${deps.file} with its server (${codeOf(e)})`);
        }
        return entry.token;
      }
      if (entry.origin !== origin) return dropForeign();
      memory = { token: entry.token, origin: entry.origin };
      return entry.token;
    },

    async save(token) {
      if (typeof token !== 'string' || token.length === 0) throw new TypeError('token must be a non-empty string');
      memory = { token, origin: deps.currentOrigin() };
      if (!isProtected()) {
        // An older file (from a session with a keyring) would now hold a stale token.
        await removeQuietly();
        return 'session';
      }
      await deps.writeFile(deps.file, encrypt(memory), { mode: PRIVATE_FILE_MODE });
      return 'os';
    },

    async clear() {
      memory = null;
      await removeQuietly();
    },
  };
  return {
    persistence: store.persistence,
    load: () => serial(() => store.load()),
    save: (token) => serial(() => store.save(token)),
    clear: () => serial(() => store.clear()),
  };
}

/** A token and the server origin it was saved for. */
interface BoundToken {
  token: string;
  origin: string;
}

/**
 * The decrypted blob: `{"origin","token"}` (origin null for the older format, a bare token), or
 * null when it is neither.
 */
function parseBlob(text: string): { token: string; origin: string | null } | null {
  if (text.startsWith('{')) {
    try {
      const v = JSON.parse(text) as { token?: unknown; origin?: unknown } | null;
      if (typeof v?.token === 'string' && isPlausibleToken(v.token) && typeof v.origin === 'string' && v.origin.length > 0) return { token: v.token, origin: v.origin };
    } catch {
      // not JSON: maybe a bare token
    }
  }
  return isPlausibleToken(text) && !text.startsWith('{') ? { token: text, origin: null } : null;
}

/** A decrypted token: non-empty, printable ASCII without spaces (JWTs and opaque ids alike). */
function isPlausibleToken(s: string): boolean {
  return s.length > 0 && s.length <= 8192 && /^[\x21-\x7e]+$/.test(s);
}

function codeOf(e: unknown): string {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : 'error';
}
