/**
 * Which Avail server the desktop app talks to: `{ "serverOrigin": "https://…", "confirmed": true }`
 * in a JSON file in the app's data folder (`<userData>/desktop-config.json`). Until the owner has
 * confirmed a server once (first run) the origin is the build-time default (`AVAIL_SERVER_URL`
 * when the app was built, else `DEFAULT_DESKTOP_SERVER_ORIGIN`) and `confirmed` is false.
 *
 * The same file keeps the macOS tray option "Show next free time in the menu bar"
 * (`"showNextFreeInMenuBar": true`, default off; docs/desktop-release.md). Each write keeps the
 * other fields; an unconfirmed origin is not written (the build default stays the default).
 * Writes are serialised (one at a time, each from the latest values), so changes made at the same
 * time all reach the file; the menu-bar option applies in memory at once, before its write.
 */
import { normaliseServerOrigin, type ServerSetting } from '@avail/shared/desktop/desktop-bridge.ts';
import { isMissing } from './private-file.ts';

export interface ServerSettingStoreDeps {
  /** @throws an error with code ENOENT when the file does not exist. */
  readFile(file: string): Promise<Buffer | string>;
  writeFile(file: string, data: string): Promise<void>;
  /** Absolute path of the config file. */
  file: string;
  /** The build-time default origin (already an origin, e.g. `http://localhost:3000`). */
  defaultOrigin: string;
  log?: (message: string) => void;
}

export interface ServerSettingStore {
  /** The current setting (`editable` is always true on the desktop). Reads the file once, then caches. */
  get(): Promise<ServerSetting>;
  /** The current origin (for the CSP and the popup rules); the default until `get` has read the file. */
  currentOrigin(): string;
  /**
   * Normalises `url` with `normaliseServerOrigin`, stores it as confirmed and resolves to the origin.
   * @throws Error('Enter the address of your Avail server, like https://avail.example.com') for a bad address
   *   (nothing is written), or the fs error when the file cannot be written.
   */
  setServerOrigin(url: string): Promise<string>;
}

/** The tray's menu-bar option, kept in the same file (the tray controller's `menuBarText`). */
export interface MenuBarOptionStore {
  /** Whether the tray shows the next free time beside its icon (macOS); false until `get` has read the file, or by default. */
  showNextFreeInMenuBar(): boolean;
  /**
   * Stores the menu-bar option. {@link showNextFreeInMenuBar} returns the new value synchronously,
   * before the returned promise settles; it applies even if the write fails (then it is logged and
   * lost at restart). Never rejects.
   */
  setShowNextFreeInMenuBar(on: boolean): Promise<void>;
}

/** Creates the store; the file is read lazily by the first `get`. */
export function createServerSettingStore(deps: ServerSettingStoreDeps): ServerSettingStore & MenuBarOptionStore {
  const log = deps.log ?? (() => undefined);
  const fallback = safeOrigin(deps.defaultOrigin) ?? 'http://localhost:3000';
  type Config = { origin: string; confirmed: boolean; menuBar: boolean };
  let cached: Config | null = null;
  let reading: Promise<Config> | null = null;
  /** The menu-bar option as last set, applied at once (before the file is read or written). */
  let menuBarSet: boolean | null = null;

  async function readFromDisk(): Promise<Config> {
    let value: Config = { origin: fallback, confirmed: false, menuBar: false };
    try {
      const raw = JSON.parse(String(await deps.readFile(deps.file))) as { serverOrigin?: unknown; confirmed?: unknown; showNextFreeInMenuBar?: unknown } | null;
      const menuBar = raw?.showNextFreeInMenuBar === true;
      const origin = typeof raw?.serverOrigin === 'string' ? safeOrigin(raw.serverOrigin) : null;
      if (origin) value = { origin, confirmed: raw?.confirmed === true, menuBar };
      else {
        value = { ...value, menuBar };
        // Only the menu-bar option stored (no server confirmed yet): not an error.
        if (raw?.serverOrigin !== undefined || raw?.confirmed === true) log(`server setting: ${deps.file} has no valid serverOrigin; using the default`);
      }
    } catch (e) {
      if (!isMissing(e)) log(`server setting: ${deps.file} could not be read; using the default`);
    }
    if (menuBarSet !== null) value = { ...value, menuBar: menuBarSet };
    cached ??= value;
    return cached;
  }

  /** The file is read once, however many callers ask at the same time. */
  function read(): Promise<Config> {
    if (cached) return Promise.resolve(cached);
    reading ??= readFromDisk();
    return reading;
  }

  // Writes run one at a time, each from the latest cached config: two changes at once (server and
  // menu-bar option) both end up in the file.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const next = queue.then(op, op);
    queue = next.catch(() => undefined);
    return next;
  };

  /** The file's content for `c`: the origin only once confirmed, the option only when on. */
  function serialise(c: Config): string {
    return `${JSON.stringify({ ...(c.confirmed ? { serverOrigin: c.origin, confirmed: true } : {}), ...(c.menuBar ? { showNextFreeInMenuBar: true } : {}) }, null, 2)}\n`;
  }

  return {
    async get() {
      const v = await read();
      return { origin: v.origin, editable: true, confirmed: v.confirmed };
    },
    currentOrigin: () => cached?.origin ?? fallback,
    setServerOrigin(url) {
      let origin: string;
      try {
        origin = normaliseServerOrigin(String(url ?? ''));
      } catch (e) {
        return Promise.reject(e);
      }
      return serial(async () => {
        const next: Config = { ...(await read()), origin, confirmed: true };
        await deps.writeFile(deps.file, serialise(next));
        // Only the fields this call changed: a menu-bar click during the write stays.
        cached = { ...(cached ?? next), origin, confirmed: true };
        return origin;
      });
    },
    showNextFreeInMenuBar: () => cached?.menuBar ?? menuBarSet ?? false,
    setShowNextFreeInMenuBar(on) {
      // At once, so the tray redrawn right after the click shows the new value.
      menuBarSet = on;
      if (cached) cached = { ...cached, menuBar: on };
      return serial(async () => {
        const current = await read();
        cached = { ...current, menuBar: menuBarSet ?? on }; // the latest click wins
        try {
          await deps.writeFile(deps.file, serialise(cached));
        } catch {
          log(`server setting: ${deps.file} could not be written; the menu-bar option is not kept`);
        }
      });
    },
  };
}

function safeOrigin(s: string): string | null {
  try {
    return normaliseServerOrigin(s);
  } catch {
    return null;
  }
}
