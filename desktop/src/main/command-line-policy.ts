/**
 * An installed app refuses to start with the command-line switches that would open it, or its
 * connection to the server, to someone else (docs/desktop-release.md, "Hardening"):
 *
 * - Chromium's remote debugging (`--remote-debugging-port`, `--remote-debugging-pipe`,
 *   `--remote-allow-origins`): a DevTools client attached to the window could call
 *   `window.availDesktop.loadToken()` and read the sign-in token. No Electron fuse turns them off
 *   (https://www.electronjs.org/docs/latest/tutorial/fuses).
 * - Node's inspector (`--inspect*`, `--debug*`) and `--js-flags`: the `enableNodeCliInspectArguments`
 *   fuse covers the former; refused here too (defence in depth, and the fuse may be left out).
 * - TLS and network capture or redirection: `--ssl-key-log-file` (the session keys, so a recording
 *   of the traffic can be decrypted), `--log-net-log` / `--net-log-capture-mode` (a log of every
 *   request, headers with the token included), `--host-resolver-rules` / `--host-rules`,
 *   `--proxy-server` / `--proxy-pac-url` (requests to the server sent elsewhere) and
 *   `--ignore-certificate-errors` (any certificate accepted for the server).
 *
 * The `SSLKEYLOGFILE` environment variable does what `--ssl-key-log-file` does: main.ts removes it
 * from its environment at the top when packaged ({@link scrubPackagedEnv}).
 *
 * A development run (`electron desktop/`, not packaged) keeps them all for debugging. main.ts asks
 * this before `ready` and exits with code 1 and one log line.
 */

/** The command-line switches (without `--`) an installed app refuses. */
export const REFUSED_SWITCHES = [
  'remote-debugging-port',
  'remote-debugging-pipe',
  'remote-allow-origins',
  'inspect',
  'inspect-brk',
  'inspect-port',
  'inspect-brk-node',
  'inspect-publish-uid',
  'debug',
  'debug-brk',
  'js-flags',
  'ssl-key-log-file',
  'log-net-log',
  'net-log-capture-mode',
  'host-resolver-rules',
  'host-rules',
  'ignore-certificate-errors',
  'proxy-server',
  'proxy-pac-url',
] as const;

/** Arguments starting like this are refused whatever follows (`--inspect=9229`, `--inspect-wait`, `--debug-port` …). */
const REFUSED_PREFIXES = ['--inspect', '--debug'] as const;

/**
 * Why this launch must not go on, or null when it may. `isPackaged`: Electron's `app.isPackaged`;
 * `hasSwitch`: Electron's `app.commandLine.hasSwitch`; `argv`: `process.argv` (for the `--inspect…`
 * and `--debug…` forms Chromium's parser may not know). Both asked only for a packaged app. The
 * reason names the switch only, never its value. Pure.
 */
export function commandLineRefusal(isPackaged: boolean, hasSwitch: (name: string) => boolean, argv: readonly string[] = []): string | null {
  if (!isPackaged) return null;
  let found: string | undefined = REFUSED_SWITCHES.find((name) => hasSwitch(name));
  if (!found) {
    const arg = argv.find((a) => typeof a === 'string' && REFUSED_PREFIXES.some((p) => a.startsWith(p)));
    if (arg) found = arg.slice(2).split('=')[0];
  }
  return found ? `refusing to start with --${found}: it could expose the sign-in token or the connection to the server` : null;
}

/**
 * Removes from `env` (main.ts: `process.env`) what would expose the connection of an installed
 * app: `SSLKEYLOGFILE` (Chromium writes the TLS session keys there). Nothing when not packaged.
 */
export function scrubPackagedEnv(isPackaged: boolean, env: Record<string, string | undefined>): void {
  if (isPackaged) delete env.SSLKEYLOGFILE;
}
