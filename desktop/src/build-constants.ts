/**
 * Values fixed when the app is built (`scripts/build.mjs` passes them to esbuild's `define`).
 * Outside a build (unit tests, type-checking) the shared defaults apply.
 */
import { DEFAULT_DESKTOP_SERVER_ORIGIN } from '@avail/shared/desktop/desktop-bridge.ts';

declare const __AVAIL_DEFAULT_SERVER_ORIGIN__: string | undefined;

/** The server the app proposes on first run: `AVAIL_SERVER_URL` at build time, else `http://localhost:3000`. */
export const BUILD_DEFAULT_SERVER_ORIGIN: string =
  typeof __AVAIL_DEFAULT_SERVER_ORIGIN__ === 'string' ? __AVAIL_DEFAULT_SERVER_ORIGIN__ : DEFAULT_DESKTOP_SERVER_ORIGIN;
