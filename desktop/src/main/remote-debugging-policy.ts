/**
 * An installed app refuses to start with Chromium's remote debugging switches
 * (`--remote-debugging-port`, `--remote-debugging-pipe`): no Electron fuse turns them off
 * (https://www.electronjs.org/docs/latest/tutorial/fuses — `enableNodeCliInspectArguments` covers
 * Node's `--inspect` only), and a DevTools client attached to the window could call
 * `window.availDesktop.loadToken()` and read the sign-in token. A development run (`electron
 * desktop/`, not packaged) keeps them for debugging. main.ts asks this before `ready` and exits
 * with code 1 and one log line (docs/desktop-release.md, "Hardening").
 */

/** The command-line switches (without `--`) that open the app to a debugger from outside. */
export const REMOTE_DEBUGGING_SWITCHES = ['remote-debugging-port', 'remote-debugging-pipe'] as const;

/**
 * Why this launch must not go on, or null when it may. `isPackaged`: Electron's `app.isPackaged`;
 * `hasSwitch`: Electron's `app.commandLine.hasSwitch` (asked only for a packaged app). The reason
 * names the switch only, never its value. Pure.
 */
export function remoteDebuggingRefusal(isPackaged: boolean, hasSwitch: (name: string) => boolean): string | null {
  if (!isPackaged) return null;
  const found = REMOTE_DEBUGGING_SWITCHES.find((name) => hasSwitch(name));
  return found ? `refusing to start with --${found}: remote debugging could read the sign-in token` : null;
}
