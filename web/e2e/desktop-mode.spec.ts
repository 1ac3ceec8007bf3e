/**
 * The desktop tray app's renderer (issue 10), tested as the web build in Chromium in desktop mode:
 * served from another origin with the desktop CSP (global-setup.ts, the stand-in for app://avail),
 * with a recording `window.availDesktop` bridge injected before the app loads — the same object
 * shape Electron's preload exposes. Electron itself cannot run on this machine; its main process is
 * unit-tested under desktop/.
 *
 * What an owner would notice: signing in keeps the token with the platform (never localStorage);
 * the tray shows the right next free window from local data; "Busy for the next 1 h" works offline,
 * shows as pending, and after reconnecting a visitor no longer gets that hour; a visitor's proposal
 * produces exactly one system notification, whose click opens that proposal (highlighted); the tray
 * lists it and its Confirm command confirms it (issue 24). Google and Microsoft connect go through
 * the bridge's `openExternal` (the system browser), never a window inside the app; changing the
 * server in Settings ends the session there and deletes the device's data before the reload (issue 27).
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { OWNER_ZONE, todayIn, uniqueAccount, zonedDateTime } from './fixtures.ts';
import { fakeRunning, fakeState, GOOGLE_ACCOUNT, MICROSOFT_ACCOUNT } from './fakes-control.ts';
import { onboardedOwner } from './helpers.ts';
import { callsOf, installRecordingBridge } from './recording-bridge.ts';

interface TrayStateSeen {
  signedIn: boolean;
  connection: string;
  pendingCount: number;
  timezone: string;
  windows: Array<{ start: number; end: number }>;
  link: string | null;
  freeTimesText: string | null;
  proposals?: Array<{ id: string; name: string; start: number; end: number }>;
}

const serverUrl = () => process.env.E2E_BASE_URL!;
const desktopUrl = () => process.env.E2E_DESKTOP_URL!;

async function lastTrayState(page: Page): Promise<TrayStateSeen | null> {
  const states = await callsOf(page, 'setTrayState');
  return (states.at(-1)?.arg as TrayStateSeen | undefined) ?? null;
}

test('desktop mode: token through the bridge, tray state from local data, an offline busy block, a proposal notification', async ({ browser }) => {
  test.setTimeout(150_000);
  // The owner signs up in a browser and opens every day 00:00–23:59 (Brussels).
  const acct = uniqueAccount('desk');
  const web = await browser.newContext({ locale: 'en-GB', baseURL: serverUrl(), timezoneId: OWNER_ZONE });
  const webPage = await web.newPage();
  await onboardedOwner(webPage, acct);
  const webToken = await webPage.evaluate(() => localStorage.getItem('auth_token'));
  const allWeek = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time_local: '00:00', end_time_local: '23:59' }));
  expect((await webPage.request.post('/api/me/availability-rules', { headers: { Authorization: `Bearer ${webToken}` }, data: { rules: allWeek } })).ok()).toBe(true);
  await web.close();

  // The desktop app: first run asks which server (the app reloads onto it); signing in stores the
  // token through the bridge.
  const desk = await browser.newContext({ locale: 'en-GB', baseURL: desktopUrl(), timezoneId: OWNER_ZONE, serviceWorkers: 'block' });
  const page = await desk.newPage();
  await installRecordingBridge(page);
  await page.goto('/login');
  const server = page.getByLabel('Avail server');
  await expect(server).toHaveValue('http://localhost:3000');
  await expect(page.getByLabel('Email')).toHaveCount(0);
  await server.fill('not a server');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Enter the address of your Avail server, like https://avail.example.com')).toBeVisible();
  await server.fill(serverUrl());
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(`Avail server: ${serverUrl()}`)).toBeVisible();
  await page.getByLabel('Email').fill(acct.email);
  await page.getByLabel('Password', { exact: true }).fill('password-123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  expect((await callsOf(page, 'setServerOrigin')).map((c) => c.arg)).toEqual([serverUrl()]);
  expect((await callsOf(page, 'saveToken')).length).toBe(1);
  const token = await page.evaluate(() => (window as unknown as { __bridgeToken(): string | null }).__bridgeToken());
  expect(token).toBeTruthy();
  const stored = await page.evaluate(() => Object.keys(localStorage).map((k) => `${k}=${localStorage.getItem(k)}`));
  expect(stored.filter((kv) => kv.includes(token!) || kv.startsWith('auth_token='))).toEqual([]);

  // After the device's data loads the tray shows the current free window: now until 23:59 today.
  const endOfToday = Date.parse(zonedDateTime(todayIn(OWNER_ZONE), '23:59', OWNER_ZONE));
  await expect.poll(async () => { const s = await lastTrayState(page); return s?.signedIn ? s.connection : 'signed out'; }, { timeout: 30_000 }).toBe('online');
  const first = (await lastTrayState(page))!;
  expect(first.signedIn).toBe(true);
  expect(first.timezone).toBe(OWNER_ZONE);
  expect(first.windows[0].start).toBeLessThanOrEqual(Date.now());
  expect(first.windows[0].end).toBe(endOfToday);
  expect(first.link).toBe(`${serverUrl()}/${acct.username}`);
  expect(first.freeTimesText).toContain(`You can see all my free times and propose one here: ${serverUrl()}/${acct.username}`);

  // Offline: "Busy for the next 1 h" makes a pending block and the tray changes at once.
  await desk.setOffline(true);
  await expect.poll(async () => (await lastTrayState(page))?.connection).toBe('offline');
  const clicked = Date.now();
  await page.evaluate(() => (window as unknown as { __emitDesktopCommand(c: unknown): void }).__emitDesktopCommand({ type: 'busy', duration: { minutes: 60 } }));
  await expect.poll(async () => (await lastTrayState(page))?.pendingCount).toBe(1);
  const busy = (await lastTrayState(page))!;
  const blockStart = Math.floor(clicked / 60_000) * 60_000;
  const blockEnd = blockStart + 3_600_000;
  expect([blockEnd, blockEnd + 60_000]).toContain(busy.windows[0].start);
  await expect(page.getByTestId('busy-block').first()).toContainText('pending sync');

  // Back online: the block reaches the server; a fresh visitor is no longer offered that hour.
  await desk.setOffline(false);
  await expect.poll(async () => (await lastTrayState(page))?.pendingCount, { timeout: 30_000 }).toBe(0);
  await expect(page.getByTestId('busy-block').first()).not.toContainText('pending sync');
  const visitor = await browser.newContext({ locale: 'en-GB', baseURL: serverUrl(), timezoneId: 'America/New_York' });
  const today = todayIn(OWNER_ZONE);
  const res = await visitor.request.get(`/api/public/${acct.username}/availability?range=${today}..${today}&tz=${encodeURIComponent(OWNER_ZONE)}`);
  expect(res.ok()).toBe(true);
  const windows = ((await res.json()).availability.windows as Array<{ start: string; end: string }>).map((w) => ({ start: Date.parse(w.start), end: Date.parse(w.end) }));
  const actualStart = busy.windows[0].start - 3_600_000;
  expect(windows.filter((w) => w.start < actualStart + 3_600_000 && w.end > actualStart)).toEqual([]);

  // A visitor proposes tomorrow 10:00–10:30: exactly one system notification.
  const tomorrow = todayIn(OWNER_ZONE, Date.now() + 86_400_000);
  const proposal = await visitor.request.post(`/api/public/${acct.username}/proposals`, {
    data: {
      start: zonedDateTime(tomorrow, '10:00', OWNER_ZONE),
      end: zonedDateTime(tomorrow, '10:30', OWNER_ZONE),
      name: 'Visiting Vera',
      email: 'vera@example.com',
      note: 'Kick-off?',
      visitor_timezone: 'America/New_York',
    },
  });
  expect(proposal.status()).toBe(201);
  await visitor.close();
  await expect.poll(async () => (await callsOf(page, 'notify')).length, { timeout: 40_000 }).toBe(1);
  const [note] = await callsOf(page, 'notify');
  expect(note.arg).toEqual({ title: 'New proposed time', body: expect.stringContaining('Visiting Vera proposed'), route: expect.stringMatching(/^\/app\/dashboard#proposal-/) });
  const route = (note.arg as { route: string }).route;
  // Another check (the network coming back triggers one) announces nothing twice.
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await page.waitForTimeout(1_500);
  expect((await callsOf(page, 'notify')).length).toBe(1);

  // The tray lists the pending proposal (issue 24), from the device's data.
  await expect.poll(async () => (await lastTrayState(page))?.proposals?.map((p) => p.name), { timeout: 30_000 }).toEqual(['Visiting Vera']);
  const trayProposal = (await lastTrayState(page))!.proposals![0];
  expect(route).toBe(`/app/dashboard#proposal-${encodeURIComponent(trayProposal.id)}`);

  // Its click opens that proposal on the dashboard, highlighted.
  await page.getByRole('link', { name: 'Analytics' }).click();
  await expect(page).toHaveURL(/\/app\/analytics$/);
  await page.evaluate((r) => (window as unknown as { __emitDesktopCommand(c: unknown): void }).__emitDesktopCommand({ type: 'navigate', route: r }), route);
  await expect(page).toHaveURL(/\/app\/dashboard#proposal-/);
  const item = page.locator(`[id="proposal-${trayProposal.id}"]`);
  await expect(item).toContainText('Visiting Vera');
  await expect(item).toHaveClass(/proposal-highlight/);
  await expect(item).toBeInViewport();

  // The tray's Confirm: the renderer carries it out; the proposal leaves the tray's list.
  await page.evaluate((id) => (window as unknown as { __emitDesktopCommand(c: unknown): void }).__emitDesktopCommand({ type: 'proposal', id, action: 'confirm' }), trayProposal.id);
  await expect(item.locator('.proposal-status')).toHaveText('Confirmed', { timeout: 20_000 });
  await expect.poll(async () => (await lastTrayState(page))?.proposals ?? [], { timeout: 20_000 }).toEqual([]);

  // The owner removes the block from the week preview; the tray frees the hour again.
  await page.getByRole('button', { name: /^Remove busy block/ }).first().click();
  await expect(page.getByTestId('busy-block')).toHaveCount(0);
  await expect.poll(async () => (await lastTrayState(page))?.windows[0]?.start).toBeLessThanOrEqual(Date.now());
  await desk.close();
});

/** First run of the desktop app: choose the server, sign in; ends on the dashboard. */
async function signInDesktop(page: Page, acct: { email: string }) {
  await installRecordingBridge(page);
  await page.goto('/login');
  await page.getByLabel('Avail server').fill(serverUrl());
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(`Avail server: ${serverUrl()}`)).toBeVisible();
  await page.getByLabel('Email').fill(acct.email);
  await page.getByLabel('Password', { exact: true }).fill('password-123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
}

/**
 * An owner onboarded in the browser build, then signed in on the desktop renderer (second origin,
 * desktop CSP, recording bridge): the new account, the desktop context and its page on the dashboard.
 */
async function desktopOwner(browser: Browser, prefix: string) {
  const acct = uniqueAccount(prefix);
  const web = await browser.newContext({ locale: 'en-GB', baseURL: serverUrl(), timezoneId: OWNER_ZONE });
  await onboardedOwner(await web.newPage(), acct);
  await web.close();
  const desk = await browser.newContext({ locale: 'en-GB', baseURL: desktopUrl(), timezoneId: OWNER_ZONE, serviceWorkers: 'block' });
  const page = await desk.newPage();
  await signInDesktop(page, acct);
  return { acct, desk, page };
}

/** The two OAuth providers' desktop connect flows: the same steps, their own names and consent buttons. */
const OAUTH_PROVIDERS = [
  {
    provider: 'google' as const,
    title: 'Google connect finishes in the system browser and the connection appears in the app',
    card: 'Google Calendar',
    connect: 'Connect Google Calendar',
    note: 'Finish connecting Google Calendar in your browser.',
    consentButton: '#allow',
    account: GOOGLE_ACCOUNT,
    // The fake's authorize page stands in for accounts.google.com.
    authorizePath: null,
  },
  {
    provider: 'microsoft' as const,
    title: 'Microsoft connect opens the consent page through the bridge, no window in the app, and the connection appears',
    card: 'Microsoft Outlook',
    connect: 'Connect Microsoft Outlook',
    note: 'Finish connecting Microsoft Outlook Calendar in your browser.',
    consentButton: '#accept',
    account: MICROSOFT_ACCOUNT,
    // The fake's authorize page stands in for login.microsoftonline.com.
    authorizePath: /\/oauth2\/v2\.0\/authorize$/,
  },
];

for (const p of OAUTH_PROVIDERS) {
  test(`desktop mode: ${p.title}`, async ({ browser }) => {
    expect(await fakeRunning(p.provider), `global-setup starts the ${p.card} fake`).toBe(true);
    const { desk, page } = await desktopOwner(browser, `desk${p.provider[0]}`);
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/app\/settings/);
    // No window of any kind: neither a popup nor an about:blank page in this context.
    const popups: unknown[] = [];
    page.on('popup', (w) => popups.push(w));
    desk.on('page', (w) => popups.push(w));
    await page.locator('.provider-card', { hasText: p.card }).getByRole('button', { name: p.connect }).click();
    await expect(page.getByText(p.note)).toBeVisible();
    await expect.poll(async () => (await callsOf(page, 'openExternal')).length).toBe(1);
    const [{ arg: consentUrl }] = await callsOf(page, 'openExternal');
    // The fake's authorize page, with the server's state and its callback.
    const { url: fakeUrl } = await fakeState(p.provider);
    expect(String(consentUrl).startsWith(fakeUrl)).toBe(true);
    const consent = new URL(String(consentUrl));
    if (p.authorizePath) expect(consent.pathname).toMatch(p.authorizePath);
    expect(consent.searchParams.get('state')).toBeTruthy();
    expect(consent.searchParams.get('redirect_uri')).toMatch(new RegExp(`/api/oauth/${p.provider}/callback$`));
    expect(popups).toEqual([]);

    // The owner's own browser: the provider's consent page, then the server's callback page.
    const system = await browser.newContext({ locale: 'en-GB' });
    const consentPage = await system.newPage();
    await consentPage.goto(String(consentUrl));
    await consentPage.locator(p.consentButton).click();
    await expect(consentPage.getByText(/connected/i)).toBeVisible();
    await system.close();

    // Back in the app, without any click: the connection shows up and the note goes away.
    const row = page.getByTestId('connection-row').filter({ hasText: p.card });
    await expect(row).toContainText(p.account, { timeout: 20_000 });
    await expect(page.getByText(p.note)).toHaveCount(0);
    expect(popups).toEqual([]);
    expect((await callsOf(page, 'openExternal')).length).toBe(1);
    await desk.close();
  });
}

test('desktop mode: changing the server in Settings ends the session there, deletes the device data and only then reloads onto the new server', async ({ browser }) => {
  test.setTimeout(120_000);
  const { desk, page } = await desktopOwner(browser, 'desks');
  const oldToken = await page.evaluate(() => (window as unknown as { __bridgeToken(): string | null }).__bridgeToken());
  expect(oldToken).toBeTruthy();
  // The device database is open (the tray reports the device's own data).
  await expect.poll(async () => { const s = await lastTrayState(page); return s?.signedIn ? s.connection : 'signed out'; }, { timeout: 30_000 }).toBe('online');
  // What the device keeps of the account: the records of its IndexedDB databases (RxDB on Dexie).
  const deviceRecords = () =>
    page.evaluate(async () => {
      let records = 0;
      for (const { name } of await indexedDB.databases()) {
        if (!name?.includes('avail-')) continue;
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const r = indexedDB.open(name);
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error);
        });
        for (const store of Array.from(db.objectStoreNames)) {
          records += await new Promise<number>((resolve, reject) => {
            const r = db.transaction(store).objectStore(store).count();
            r.onsuccess = () => resolve(r.result);
            r.onerror = () => reject(r.error);
          });
        }
        db.close();
      }
      return records;
    });
  expect(await deviceRecords()).toBeGreaterThan(0);

  await page.goto('/app/settings');
  await page.evaluate(() => ((window as unknown as { __notReloaded?: boolean }).__notReloaded = true));
  const other = new URL(serverUrl());
  other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  const newOrigin = other.origin;
  await page.getByLabel('Avail server').fill(newOrigin);
  const reloaded = page.waitForEvent('load', { timeout: 20_000 });
  await page.getByRole('button', { name: 'Save server' }).click();

  // Reloaded (a real page load: the marker is gone) onto the sign-in page of the new server.
  await reloaded;
  await expect(page.getByText(`Avail server: ${newOrigin}`)).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded)).toBeUndefined();
  expect((await callsOf(page, 'setServerOrigin')).map((c) => c.arg)).toEqual([serverUrl(), newOrigin]);
  // Signed out everywhere: no token kept, the old session ended on the old server, the device data deleted.
  expect(await page.evaluate(() => (window as unknown as { __bridgeToken(): string | null }).__bridgeToken())).toBeNull();
  expect((await page.request.get(`${serverUrl()}/api/me`, { headers: { Authorization: `Bearer ${oldToken}` } })).status()).toBe(401);
  expect(await deviceRecords()).toBe(0);
  await desk.close();
});
