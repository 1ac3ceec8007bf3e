/**
 * Values fixed when the app is built (`scripts/build.mjs` passes them to esbuild's `define`).
 * Outside a build (unit tests, type-checking) the shared defaults apply.
 */
import { DEFAULT_DESKTOP_SERVER_ORIGIN } from '@avail/shared/desktop/desktop-bridge.ts';

declare const __AVAIL_DEFAULT_SERVER_ORIGIN__: string | undefined;
declare const __AVAIL_HOMEPAGE__: string | undefined;

/** The server the app proposes on first run: `AVAIL_SERVER_URL` at build time, else `http://localhost:3000`. */
export const BUILD_DEFAULT_SERVER_ORIGIN: string =
  typeof __AVAIL_DEFAULT_SERVER_ORIGIN__ === 'string' ? __AVAIL_DEFAULT_SERVER_ORIGIN__ : DEFAULT_DESKTOP_SERVER_ORIGIN;

/**
 * The project's `homepage` (root package.json, which electron-builder also reads), fixed at build
 * time by scripts/build.mjs (only that field: the rest of package.json stays out of the bundle); its
 * host joins the external-link allow-list (external-link-policy.ts). undefined when the field is
 * absent, and outside a build: help pages are then asked about like any other address.
 */
export const PROJECT_HOMEPAGE: string | undefined = typeof __AVAIL_HOMEPAGE__ === 'string' ? __AVAIL_HOMEPAGE__ : undefined;
