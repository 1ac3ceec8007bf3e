/**
 * Which Avail server the desktop app talks to: `{ "serverOrigin": "https://…", "confirmed": true }`
 * in a JSON file in the app's data folder (`<userData>/desktop-config.json`). Until the owner has
 * confirmed a server once (first run) the origin is the build-time default (`AVAIL_SERVER_URL`
 * when the app was built, else `DEFAULT_DESKTOP_SERVER_ORIGIN`) and `confirmed` is false.
 *
 * The same file keeps the macOS tray option "Show next free time in the menu bar"
 * (`"showNextFreeInMenuBar": true`, default off; docs/desktop-release.md). Each write keeps the
 * other fields; an unconfirmed origin is not written (the build default stays the default).
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
  /** Stores the menu-bar option (the change applies at once, even if the write fails: then it is logged and lost at restart). */
  setShowNextFreeInMenuBar(on: boolean): Promise<void>;
}

/** Creates the store; the file is read lazily by the first `get`. */
export function createServerSettingStore(deps: ServerSettingStoreDeps): ServerSettingStore & MenuBarOptionStore {
  const log = deps.log ?? (() => undefined);
  const fallback = safeOrigin(deps.defaultOrigin) ?? 'http://localhost:3000';
  type Config = { origin: string; confirmed: boolean; menuBar: boolean };
  let cached: Config | null = null;

  async function read(): Promise<Config> {
    if (cached) return cached;
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
    cached = value;
    return value;
  }

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
    async setServerOrigin(url) {
      const origin = normaliseServerOrigin(String(url ?? ''));
      const next: Config = { ...(await read()), origin, confirmed: true };
      await deps.writeFile(deps.file, serialise(next));
      cached = next;
      return origin;
    },
    showNextFreeInMenuBar: () => cached?.menuBar ?? false,
    async setShowNextFreeInMenuBar(on) {
      const next: Config = { ...(await read()), menuBar: on };
      cached = next;
      try {
        await deps.writeFile(deps.file, serialise(next));
      } catch {
        log(`server setting: ${deps.file} could not be written; the menu-bar option is not kept`);
      }
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
