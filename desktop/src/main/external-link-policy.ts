/**
 * The one way the app hands an address to the system browser (`shell.openExternal`), as the
 * contract's "Hardening" section says (docs/desktop-release.md; Electron's security checklist
 * https://www.electronjs.org/docs/latest/tutorial/security#15-do-not-use-shellopenexternal-with-untrusted-content):
 *
 * - https to an allow-listed host (the providers' consent pages, the project's own `homepage` host)
 *   opens at once;
 * - any other http(s) address opens only after the owner answers a question ("Open this address in
 *   your browser?", the full address with its host in punycode and the host on a line of its own,
 *   Open / Cancel, Cancel the default);
 * - every other scheme (`file:`, `smb:`, `javascript:`, `about:` …), and any address carrying a
 *   user name or password, is refused.
 *
 * Callers: the bridge's `openExternal` (ipc-handlers.ts), the main window's `will-navigate` /
 * `will-redirect` web links and every `window.open` target (app-window.ts). Logs name the scheme
 * and host only — never the path's query, where consent pages carry state and codes.
 */

/** Hosts of the providers' consent and sign-in pages (Google, Microsoft work/school and personal, Apple). */
export const PROVIDER_CONSENT_HOSTS: readonly string[] = ['accounts.google.com', 'login.microsoftonline.com', 'login.live.com', 'appleid.apple.com'];

/** What {@link decideExternalLink} says about an address. */
export type ExternalLinkDecision = 'open' | 'ask' | 'refuse';

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * The host of an https `homepage` (root package.json), lower-case; null when there is none or it is
 * not an https URL (then the help pages are simply asked about, like any other address).
 */
export function homepageHost(homepage: string | null | undefined): string | null {
  if (typeof homepage !== 'string') return null;
  const u = parse(homepage.trim());
  return u && u.protocol === 'https:' && !u.username && !u.password && u.hostname ? u.hostname.toLowerCase() : null;
}

/**
 * The allow-list: {@link PROVIDER_CONSENT_HOSTS} plus the host of the project's `homepage`
 * (see {@link homepageHost}).
 */
export function externalLinkAllowHosts(homepage: string | null | undefined): string[] {
  const help = homepageHost(homepage);
  return help && !PROVIDER_CONSENT_HOSTS.includes(help) ? [...PROVIDER_CONSENT_HOSTS, help] : [...PROVIDER_CONSENT_HOSTS];
}

/**
 * Decides what to do with `url`: `'open'` for https on one of `allowHosts` (exact host name, case
 * insensitive, default port), `'ask'` for any other http: or https: address, `'refuse'` for
 * anything else — another scheme, an unparsable string, or a user name / password in the address
 * (`https://accounts.google.com@evil.example/` has host evil.example and would be refused anyway).
 */
export function decideExternalLink(url: string, options: { allowHosts: readonly string[] }): ExternalLinkDecision {
  if (typeof url !== 'string') return 'refuse';
  const u = parse(url);
  if (!u || u.username || u.password) return 'refuse';
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'refuse';
  if (u.protocol === 'https:' && u.port === '' && options.allowHosts.some((h) => h.toLowerCase() === u.hostname.toLowerCase())) return 'open';
  return 'ask';
}

/**
 * `url` as it may appear in a log line: its scheme and host only (`https://accounts.google.com`,
 * `file:`), never the path or query, where state, codes or tokens may sit.
 */
export function describeLinkForLog(url: string): string {
  const u = typeof url === 'string' ? parse(url) : null;
  if (!u) return 'an unparsable address';
  if (u.protocol === 'http:' || u.protocol === 'https:') return `${u.protocol}//${u.host}`;
  return u.protocol;
}

/**
 * The question of the "ask" case (Electron `dialog.showMessageBox` options). The detail shows the
 * address as the browser will read it (`new URL(url).href`: a non-ASCII host in its punycode form,
 * `xn--…`, so a look-alike of a known name in Cyrillic or Greek letters does not pass for it) and,
 * on a line of its own, the host it goes to. An unparsable `url` is shown as given.
 */
export function externalLinkQuestion(url: string) {
  const u = parse(url);
  return {
    type: 'question' as const,
    message: 'Open this address in your browser?',
    detail: u ? `${u.href}\n\nSite: ${u.hostname}` : url,
    buttons: ['Open', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  };
}

/** The part of Electron's `dialog` the question needs (https://www.electronjs.org/docs/latest/api/dialog#dialogshowmessageboxwindow-options). */
export interface MessageBoxDialog {
  showMessageBox(options: ReturnType<typeof externalLinkQuestion>): Promise<{ response: number }>;
}

/**
 * The `confirm` of {@link openExternalWithPolicy} over a message box: resolves true only when the
 * owner chose Open (button 0); Cancel, Escape or closing the box → false.
 */
export function confirmWithMessageBox(dialog: MessageBoxDialog): (url: string) => Promise<boolean> {
  return async (url) => (await dialog.showMessageBox(externalLinkQuestion(url))).response === 0;
}

/** What {@link openExternalWithPolicy} needs. */
export interface ExternalLinkDeps {
  /** Electron's `shell` (https://www.electronjs.org/docs/latest/api/shell#shellopenexternalurl-options). */
  shell: { openExternal(url: string): Promise<void> | void };
  /** Asks the owner whether to open `url` (see {@link confirmWithMessageBox}); true = open. */
  confirm(url: string): Promise<boolean>;
  /** The allow-list (see {@link externalLinkAllowHosts}). */
  allowHosts: readonly string[];
  log(message: string): void;
}

/** What happened to an address handed to {@link openExternalWithPolicy}. */
export type ExternalLinkOutcome = 'opened' | 'cancelled' | 'refused' | 'failed';

/**
 * Opens `url` in the system browser if {@link decideExternalLink} allows it: at once (`open`),
 * after the owner chose Open (`ask`), or never (`refuse`, logged as scheme + host). The browser gets
 * `new URL(url).href` — the address the question showed (host in punycode), not the raw string.
 * Never throws: a failing `confirm` or `shell.openExternal` is logged and reported as `'failed'`.
 */
export async function openExternalWithPolicy(url: string, deps: ExternalLinkDeps): Promise<ExternalLinkOutcome> {
  const decision = decideExternalLink(url, { allowHosts: deps.allowHosts });
  const what = describeLinkForLog(url);
  if (decision === 'refuse') {
    deps.log(`external link refused: ${what}`);
    return 'refused';
  }
  // Not 'refuse': it parsed. What the dialog showed is what opens.
  const href = new URL(url).href;
  try {
    if (decision === 'ask' && !(await deps.confirm(url))) return 'cancelled';
    await deps.shell.openExternal(href);
    return 'opened';
  } catch {
    deps.log(`could not open ${what} in the default browser`);
    return 'failed';
  }
}
