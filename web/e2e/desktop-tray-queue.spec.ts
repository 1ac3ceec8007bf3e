/**
 * The tray on its own (issue 25), tested as the desktop renderer (the web build under the desktop
 * CSP on its second origin, with a recording `window.availDesktop` bridge — see
 * desktop-mode.spec.ts): the app starts with a stored token while its device database cannot open
 * yet (the database's code is held back), as after a restart of the app.
 *
 * What an owner would notice: the tray is told "signed in, syncing" from the start — never "Not
 * signed in"; the dashboard's week already shows the busy blocks the server has; "Busy for the next
 * 30 min", clicked ten minutes before the database opened, is carried out when it opens — from the
 * click, not from when it ran — and a system notification says it is done; only then is the
 * platform told its own kept commands may come (`commandsReady`). A command handed over and then
 * lost to a page reload is delivered again after it: carried out once (a second delivery of the
 * same `commandId` is dropped), acknowledged (`commandDone`), and its block shown once.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { OWNER_ZONE, uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';
import { callsOf, installRecordingBridge } from './recording-bridge.ts';

interface TrayStateSeen {
  signedIn: boolean;
  connection: string;
  timezone: string;
  link: string | null;
  windows: Array<{ start: number; end: number }>;
  syncing?: boolean;
}

const serverUrl = () => process.env.E2E_BASE_URL!;
const desktopUrl = () => process.env.E2E_DESKTOP_URL!;
const MIN = 60_000;


/** `15:30` in the owner's zone. */
function clock(t: number): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: OWNER_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(t));
}

/** An onboarded owner open every day 00:00–23:59 (Brussels), signed in on a web page of the server (close `web` when done). */
async function ownerOpenAllWeek(browser: Browser, prefix: string) {
  const acct = uniqueAccount(prefix);
  const web = await browser.newContext({ locale: 'en-GB', baseURL: serverUrl(), timezoneId: OWNER_ZONE });
  const webPage = await web.newPage();
  await onboardedOwner(webPage, acct);
  const token = (await webPage.evaluate(() => localStorage.getItem('auth_token')))!;
  const auth = { Authorization: `Bearer ${token}` };
  const allWeek = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time_local: '00:00', end_time_local: '23:59' }));
  expect((await webPage.request.post('/api/me/availability-rules', { headers: auth, data: { rules: allWeek } })).ok()).toBe(true);
  return { acct, token, auth, web, webPage };
}

/**
 * The desktop renderer signed in with `token`, opened at the dashboard, its device database's code
 * held back until `release()` (as after a restart, before the database opens).
 */
async function desktopWithDatabaseHeld(browser: Browser, token: string) {
  const desk = await browser.newContext({ locale: 'en-GB', baseURL: desktopUrl(), timezoneId: OWNER_ZONE, serviceWorkers: 'block' });
  const page = await desk.newPage();
  await installRecordingBridge(page, { token, origin: serverUrl(), confirmed: true });
  let release: () => void = () => undefined;
  const released = new Promise<void>((r) => (release = r));
  let held = 0;
  await page.route(/\/assets\/local-db-[^/]*\.js$/, async (route) => {
    held += 1;
    await released;
    await route.continue().catch(() => undefined); // the page that asked may have reloaded meanwhile
  });
  await page.goto('/app/dashboard');
  await expect.poll(() => held, { timeout: 20_000 }).toBeGreaterThan(0);
  return { desk, page, release: () => release(), heldCount: () => held };
}

test('desktop tray on its own: signed in and syncing before the first pull, the server\'s blocks in the week, a busy block clicked before the database opened is carried out from the click and notified', async ({ browser }) => {
  test.setTimeout(120_000);
  // The owner, open every day 00:00–23:59 (Brussels), with one busy block made elsewhere.
  const { acct, token, auth, web, webPage } = await ownerOpenAllWeek(browser, 'trayq');
  const minute = Math.floor(Date.now() / MIN) * MIN;
  // An hour from now, so the tray's own block (now − 10 min, 30 min) ends in free time before it.
  const elsewhere = { start_ms: minute + 60 * MIN, end_ms: minute + 105 * MIN };
  expect((await webPage.request.post('/api/me/blocks', { headers: auth, data: elsewhere })).status()).toBe(201);
  await web.close();

  // The desktop app starts signed in; its device database's code is held back until released.
  const { desk, page, release } = await desktopWithDatabaseHeld(browser, token);

  // The tray: signed in and syncing, with the owner's zone and link — never "Not signed in".
  await expect.poll(async () => (await callsOf(page, 'setTrayState')).length, { timeout: 20_000 }).toBeGreaterThan(0);
  const early = (await callsOf(page, 'setTrayState')).map((c) => c.arg as TrayStateSeen);
  expect(early.every((s) => s.signedIn)).toBe(true);
  expect(early.at(-1)).toMatchObject({ signedIn: true, syncing: true, connection: 'syncing', timezone: OWNER_ZONE, link: `${serverUrl()}/${acct.username}`, windows: [] });

  // The week already shows the block the server has (GET /api/me/blocks), before any pull.
  const elsewhereText = `${clock(elsewhere.start_ms)}`;
  await expect(page.getByTestId('busy-block').filter({ hasText: elsewhereText })).toHaveCount(1, { timeout: 20_000 });

  // "Busy for the next 30 min", clicked ten minutes ago, reaches the app while its database is closed.
  const clickedAt = Date.now() - 10 * MIN;
  await page.evaluate((at) => (window as unknown as { __emitDesktopCommand(c: unknown): void }).__emitDesktopCommand({ type: 'busy', duration: { minutes: 30 }, at }), clickedAt);
  await page.waitForTimeout(500);
  expect(await callsOf(page, 'notify')).toEqual([]);
  expect(await callsOf(page, 'commandsReady')).toEqual([]);

  // The database opens: the block is added from the click, the owner is told, the platform may deliver its own.
  release();
  const blockStart = Math.floor(clickedAt / MIN) * MIN;
  const blockEnd = blockStart + 30 * MIN;
  await expect.poll(async () => (await callsOf(page, 'notify')).map((c) => (c.arg as { title: string }).title), { timeout: 30_000 }).toEqual([`Busy until ${clock(blockEnd)}`]);
  const [done] = await callsOf(page, 'notify');
  expect(done.arg).toEqual({
    title: `Busy until ${clock(blockEnd)}`,
    body: `Blocked ${clock(blockStart)}–${clock(blockEnd)} (${OWNER_ZONE}) from the tray: visitors no longer see this time.`,
    route: '/app/dashboard',
  });
  expect((await callsOf(page, 'commandsReady')).length).toBeGreaterThan(0);

  // It reaches the server with the click's times; a visitor's free time is cut by it.
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`${serverUrl()}/api/me/blocks`, { headers: auth });
        return ((await res.json()) as { blocks: Array<{ start_ms: number; end_ms: number }> }).blocks.map((b) => [b.start_ms, b.end_ms]);
      },
      { timeout: 30_000 },
    )
    .toContainEqual([blockStart, blockEnd]);

  // After the pull the tray has the device's own windows: no longer syncing, free again after the block.
  await expect.poll(async () => { const s = (await callsOf(page, 'setTrayState')).at(-1)?.arg as TrayStateSeen | undefined; return s?.syncing ?? false; }, { timeout: 30_000 }).toBe(false);
  const after = (await callsOf(page, 'setTrayState')).at(-1)!.arg as TrayStateSeen;
  expect(after.windows[0].start).toBe(blockEnd);
  expect((await callsOf(page, 'setTrayState')).every((c) => (c.arg as TrayStateSeen).signedIn)).toBe(true);
  await desk.close();
});

test('desktop tray on its own: a command handed over, then the page reloaded before it was carried out, is carried out once after the reload, acknowledged, and its block appears once', async ({ browser }) => {
  test.setTimeout(120_000);
  const { acct, token, auth, web } = await ownerOpenAllWeek(browser, 'trayr');
  await web.close();

  // The desktop app starts signed in; its device database's code is held back until released.
  const { desk, page, release, heldCount } = await desktopWithDatabaseHeld(browser, token);

  // "Busy for the next 30 min", clicked two minutes ago, is handed over (as main does after a
  // commandsReady of an earlier page) while the database is still closed…
  const clickedAt = Date.now() - 2 * MIN;
  const command = { type: 'busy', duration: { minutes: 30 }, at: clickedAt, commandId: 'cmd-reload-1', queued: true };
  const emit = (c: unknown) => page.evaluate((x) => (window as unknown as { __emitDesktopCommand(c: unknown): void }).__emitDesktopCommand(x), c);
  await emit(command);
  await page.waitForTimeout(300);
  // …and the page reloads before it was carried out: nothing was done, nothing acknowledged.
  const heldBefore = heldCount();
  await page.reload();
  await expect.poll(() => heldCount(), { timeout: 20_000 }).toBeGreaterThan(heldBefore);
  expect(await callsOf(page, 'notify')).toEqual([]);
  expect(await callsOf(page, 'commandDone')).toEqual([]);
  const readyBefore = (await callsOf(page, 'commandsReady')).length;

  // The new page's database opens: it asks for the kept commands for this account…
  release();
  await expect.poll(async () => (await callsOf(page, 'commandsReady')).length, { timeout: 30_000 }).toBeGreaterThan(readyBefore);
  const [ready] = (await callsOf(page, 'commandsReady')).slice(-1);
  expect(typeof ready.arg).toBe('string');
  // …and the platform delivers the unacknowledged one again (twice here: a second "ready" of the same page).
  await emit(command);
  await emit(command);

  // Carried out once: one "done" notice, then acknowledged.
  const blockStart = Math.floor(clickedAt / MIN) * MIN;
  const blockEnd = blockStart + 30 * MIN;
  await expect.poll(async () => (await callsOf(page, 'commandDone')).map((c) => c.arg), { timeout: 30_000 }).toContain('cmd-reload-1');
  expect((await callsOf(page, 'notify')).map((c) => (c.arg as { title: string }).title)).toEqual([`Busy until ${clock(blockEnd)}`]);

  // A delivery after the acknowledgement (e.g. it crossed it) is not carried out again.
  await emit(command);
  await page.waitForTimeout(500);
  expect((await callsOf(page, 'notify')).length).toBe(1);

  // The server gets one block with the click's times; after the pull the week shows it once.
  const sameBlock = async () => {
    const res = await page.request.get(`${serverUrl()}/api/me/blocks`, { headers: auth });
    return ((await res.json()) as { blocks: Array<{ start_ms: number; end_ms: number }> }).blocks.filter((b) => b.start_ms === blockStart && b.end_ms === blockEnd).length;
  };
  await expect.poll(sameBlock, { timeout: 30_000 }).toBe(1);
  await expect.poll(async () => { const s = (await callsOf(page, 'setTrayState')).at(-1)?.arg as TrayStateSeen | undefined; return s?.syncing ?? false; }, { timeout: 30_000 }).toBe(false);
  await expect(page.getByTestId('busy-block').filter({ hasText: clock(blockStart) })).toHaveCount(1, { timeout: 20_000 });
  expect(await sameBlock()).toBe(1);
  await desk.close();
});
