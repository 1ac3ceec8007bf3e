/**
 * The real-Electron suite's setup: the same real server (and its mail capture, feeds and provider
 * fakes) as the browser tests, started by web/e2e/global-setup.ts — E2E_BASE_URL, E2E_MAIL_DIR …
 * in the environment of the specs; it returns the teardown. Without Electron's binary nothing is
 * started: every spec skips itself (tray-app.spec.ts) and a server would serve no one.
 */
import webGlobalSetup from '../../web/e2e/global-setup.ts';
import { electronBinary, noBinaryReason } from './electron-app.ts';

export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  const reason = noBinaryReason(electronBinary());
  if (reason) {
    console.log(`[desktop e2e] ${reason}: the server is not started and every spec is skipped`);
    return undefined;
  }
  return webGlobalSetup();
}
