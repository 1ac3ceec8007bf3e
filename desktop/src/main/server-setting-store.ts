/**
 * Which Avail server the desktop app talks to: `{ "serverOrigin": "https://…", "confirmed": true }`
 * in a JSON file in the app's data folder (`<userData>/desktop-config.json`). Until the owner has
 * confirmed a server once (first run) the origin is the build-time default (`AVAIL_SERVER_URL`
 * when the app was built, else `DEFAULT_DESKTOP_SERVER_ORIGIN`) and `confirmed` is false.
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

/** Creates the store; the file is read lazily by the first `get`. */
export function createServerSettingStore(deps: ServerSettingStoreDeps): ServerSettingStore {
  const log = deps.log ?? (() => undefined);
  const fallback = safeOrigin(deps.defaultOrigin) ?? 'http://localhost:3000';
  let cached: { origin: string; confirmed: boolean } | null = null;

  async function read(): Promise<{ origin: string; confirmed: boolean }> {
    if (cached) return cached;
    let value = { origin: fallback, confirmed: false };
    try {
      const raw = JSON.parse(String(await deps.readFile(deps.file))) as { serverOrigin?: unknown; confirmed?: unknown } | null;
      const origin = typeof raw?.serverOrigin === 'string' ? safeOrigin(raw.serverOrigin) : null;
      if (origin) value = { origin, confirmed: raw?.confirmed === true };
      else log(`server setting: ${deps.file} has no valid serverOrigin; using the default`);
    } catch (e) {
      if (!isMissing(e)) log(`server setting: ${deps.file} could not be read; using the default`);
    }
    cached = value;
    return value;
  }

  return {
    async get() {
      const v = await read();
      return { origin: v.origin, editable: true, confirmed: v.confirmed };
    },
    currentOrigin: () => cached?.origin ?? fallback,
    async setServerOrigin(url) {
      const origin = normaliseServerOrigin(String(url ?? ''));
      await deps.writeFile(deps.file, `${JSON.stringify({ serverOrigin: origin, confirmed: true }, null, 2)}\n`);
      cached = { origin, confirmed: true };
      return origin;
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
