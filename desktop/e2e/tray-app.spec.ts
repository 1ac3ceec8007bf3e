/**
 * The tray app on real Electron (issue 27, docs/desktop-release.md "Real-Electron suite"): the app
 * is started as a user starts it (`electron desktop/`), each test with a fresh data folder, and
 * driven through its window and its tray menu (read and clicked through the AVAIL_E2E test hook,
 * desktop/src/main/e2e-hook.ts). The server is the real one of global-setup.ts, reached through a
 * relay the restart test closes.
 *
 * What a user would notice: the app starts with its tray ("Not signed in") and its window on
 * app://avail; signed in, the tray says when they are free next; "Busy for the next 30 min" in the
 * tray puts a busy block on the dashboard (synced to the server) and the tray says busy; after a
 * restart with the server gone the dashboard and the tray still show it, from the device's own
 * database; the window never leaves app://avail for another site; Quit ends the app.
 *
 * Without Electron's binary (this project's CI) every test is skipped with the reason.
 */
import { expect, test, type Page } from '@playwright/test';
import type { ElectronApplication } from 'playwright-core';
import { apiOwner, clickTrayItem, electronBinary, launchAvail, newDataFolder, noBinaryReason, processEnded, relayTo, trayShown } from './electron-app.ts';

const binary = electronBinary();
const skipReason = noBinaryReason(binary);
// Where Electron's binary is meant to be there (the release workflow sets AVAIL_REQUIRE_ELECTRON=1),
// its absence fails the suite: a skip there would publish installers no real-Electron test has seen.
if (skipReason !== null && process.env.AVAIL_REQUIRE_ELECTRON === '1') throw new Error(`AVAIL_REQUIRE_ELECTRON=1, but ${skipReason}`);
test.skip(skipReason !== null, skipReason ?? '');

const serverUrl = () => process.env.E2E_BASE_URL!;
const APP_URL = /^app:\/\/avail\//;

/** Apps and folders a test opened, closed and removed after it (also when it failed). */
const opened: ElectronApplication[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
test.afterEach(async () => {
  for (const app of opened.splice(0)) {
    if (app.process().exitCode === null && app.process().signalCode === null) await app.close().catch(() => app.process().kill());
  }
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function launch(dataDir: string): Promise<{ app: ElectronApplication; page: Page }> {
  const app = await launchAvail(binary.path!, dataDir);
  opened.push(app);
  const page = await app.firstWindow();
  return { app, page };
}

function folder(serverOrigin?: string): string {
  const f = newDataFolder(serverOrigin);
  cleanups.push(f.remove);
  return f.dir;
}

const tooltip = (app: ElectronApplication) => async () => (await trayShown(app))?.tooltip ?? null;

test('starts with its tray and its window on app://avail', async () => {
  const { app, page } = await launch(folder());
  await expect.poll(tooltip(app), { message: 'the tray exists and says so' }).toBe('Not signed in');
  const shown = (await trayShown(app))!;
  expect(shown.labels).toEqual(expect.arrayContaining(['Not signed in', 'Open Avail', 'Quit']));
  await page.waitForLoadState('domcontentloaded');
  expect(page.url()).toMatch(APP_URL);
  expect(await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'))).toBe(
    // The hook's data folder, not ~/.config/Avail.
    (await app.evaluate(() => process.env.AVAIL_USER_DATA_DIR))!,
  );
});

test('signs in, the tray shows the next free window, busy from the tray, and after a restart with the server gone the data comes from the device', async () => {
  const owner = await apiOwner(serverUrl());
  const relay = await relayTo(serverUrl());
  cleanups.push(() => relay.close());
  const dataDir = folder(relay.origin);

  // Sign in against the local server (desktop-config.json names it, confirmed).
  const first = await launch(dataDir);
  await expect(first.page).toHaveURL(/^app:\/\/avail\/login/);
  await first.page.getByLabel('Email').fill(owner.email);
  await first.page.getByLabel('Password', { exact: true }).fill(owner.password);
  await first.page.getByRole('button', { name: 'Sign in' }).click();
  await expect(first.page).toHaveURL(/^app:\/\/avail\/app\/dashboard/);

  // The tray: open every day 00:00–23:59, so free now (or, in the last minute of a day, next free).
  await expect.poll(tooltip(first.app)).toMatch(/^Free now until |next free/);
  expect((await trayShown(first.app))!.labels).toEqual(expect.arrayContaining(['Busy for the next 30 min', 'Copy my link']));

  // "Busy for the next 30 min" from the tray: a block on the dashboard, synced, and the tray says busy.
  // One 30-minute block. The dashboard draws a block per day column it touches, each segment
  // labelled with the whole block's span: clicked between 23:30 and 00:00 (the test zone) it is two
  // `busy-block` elements with the same text, so the count is 1 or 2 and every text is the same.
  await clickTrayItem(first.app, 'Busy for the next 30 min');
  const block = first.page.getByTestId('busy-block');
  await expect(block.first()).toBeVisible();
  const segments = await block.count();
  expect(segments, 'one block, drawn in at most two day columns').toBeGreaterThanOrEqual(1);
  expect(segments, 'one block, drawn in at most two day columns').toBeLessThanOrEqual(2);
  for (let i = 0; i < segments; i += 1) await expect(block.nth(i)).not.toContainText('pending sync');
  const blockTexts = await block.allInnerTexts();
  expect(new Set(blockTexts).size, `segments of one block: ${JSON.stringify(blockTexts)}`).toBe(1);
  await expect.poll(tooltip(first.app)).toMatch(/^Busy — next free /);
  const busyTooltip = (await trayShown(first.app))!.tooltip;

  // The token survives a restart only in the OS keyring; without one it is kept in memory (by
  // design), so a restart would sign out: the suite needs a keyring (desktop/README.md).
  const keyring = await first.app.evaluate(({ safeStorage }) =>
    safeStorage.isEncryptionAvailable() && (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text'),
  );
  expect(keyring, 'an OS keyring for safeStorage (Linux: run under dbus-run-session with gnome-keyring unlocked)').toBe(true);

  // Close the app, take the server away, start again with the same data folder.
  await first.app.close();
  await relay.close();
  const second = await launch(dataDir);
  await expect(second.page).toHaveURL(/^app:\/\/avail\/app\/dashboard/);
  // The same block from the device database: as many segments, the same span.
  await expect(second.page.getByTestId('busy-block')).toHaveCount(segments);
  expect(await second.page.getByTestId('busy-block').allInnerTexts()).toEqual(blockTexts);
  // The tray: the last known state at once, then the device's own data — still busy, never "Not signed in".
  await expect.poll(tooltip(second.app)).toMatch(/^Busy — next free /);
  expect((await trayShown(second.app))!.tooltip).toBe(busyTooltip);
});

test('refuses to navigate the window to another site', async () => {
  const { app, page } = await launch(folder());
  await expect(page).toHaveURL(APP_URL);
  // Whatever the guard hands to the browser (or asks about) is recorded here, never opened.
  await app.evaluate(({ shell, dialog }) => {
    const asked: string[] = [];
    (globalThis as { __externalAsked?: string[] }).__externalAsked = asked;
    try {
      shell.openExternal = async (url: string) => void asked.push(url);
      dialog.showMessageBox = (async () => ({ response: 1, checkboxChecked: false })) as unknown as typeof dialog.showMessageBox;
    } catch {
      /* read-only in this Electron: the guard may open a browser, the window must still stay */
    }
  });
  await page.evaluate(() => {
    window.location.href = 'https://example.com/';
  });
  await page.waitForTimeout(2_000);
  expect(page.url()).toMatch(APP_URL);
  await page.evaluate(() => {
    window.location.assign('http://example.com/other');
  });
  await page.waitForTimeout(1_000);
  expect(page.url()).toMatch(APP_URL);
});

test('Quit in the tray ends the app', async () => {
  const { app } = await launch(folder());
  await expect.poll(tooltip(app)).toBe('Not signed in');
  expect((await trayShown(app))!.labels).toContain('Quit');
  await clickTrayItem(app, 'Quit', { later: true });
  expect(await processEnded(app, 20_000)).toBe(0);
});
