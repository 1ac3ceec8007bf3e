/**
 * The browser's implementation of the platform contract (`@avail/shared/desktop/desktop-bridge.ts`):
 * the token in localStorage (spec §9 `auth_token`), the page's own origin as the server, no tray
 * and no system notifications. The desktop app's preload supplies the other implementation.
 */
import { localStorageTokenStore } from '@avail/shared/api/api-client.ts';
import { isExternalPageUrl, type DesktopBridge, type DesktopCommand } from '@avail/shared/desktop/desktop-bridge.ts';

export const browserBridge = {
  capabilities: () => ({ notifications: false, consentInSystemBrowser: false }),
  openExternal: async (url: string) => {
    if (!isExternalPageUrl(url)) throw new Error('Only web pages can be opened');
    window.open(url, '_blank', 'noopener,noreferrer');
  },
  tokenPersistence: async () => 'browser' as const,
  loadToken: async () => localStorageTokenStore.get(),
  saveToken: async (token: string) => {
    localStorageTokenStore.set(token);
    return 'browser' as const;
  },
  clearToken: async () => localStorageTokenStore.clear(),
  serverSetting: async () => ({ origin: '', editable: false, confirmed: true }),
  setServerOrigin: async (_url: string): Promise<string> => {
    throw new Error('The web app always talks to the server it was opened from.');
  },
  setTrayState: () => undefined,
  onCommand: (_listener: (command: DesktopCommand) => void) => () => undefined,
  notify: () => undefined,
  // No tray, so no commands wait for the device database.
  commandsReady: () => undefined,
  commandsNotReady: () => undefined,
  commandDone: () => undefined,
  usesServiceWorker: () => true,
} satisfies DesktopBridge;
