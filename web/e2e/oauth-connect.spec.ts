/**
 * Google and Microsoft calendars, live (issue 5), in Chromium against the real server and the
 * local fakes of Google Calendar and Microsoft Graph (global-setup starts them and gives the server
 * their env, with WEBHOOK_BASE_URL = the server's own URL):
 * Settings → Connect → the popup shows the fake's consent page → Allow → the popup closes itself
 * → the card says Connected with the account and the counts; the fake's event is on the owner's
 * dashboard and busy (never titled) on the public page; a push notification after a change in
 * the fake updates the public page within 3 s.
 *
 * The run has one server, configured for both providers, so "unavailable" (a server without
 * GOOGLE_CLIENT_ID) is rendered from a routed `/api/me/calendar/providers` answer, and a connect
 * failure from a routed connect answer.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { GOOGLE_ACCOUNT, MICROSOFT_ACCOUNT, fakeCall, fakeRunning, fakeState } from './fakes-control.ts';
import { connectThroughPopup } from './oauth-popup.ts';
import { nextWeekMonday, OWNER_ZONE, uniqueAccount, zonedDateTime } from './fixtures.ts';
import { onboardedOwner, saveScreenshot } from './helpers.ts';

/** Screenshots (not committed): test-results/oauth-screens at the repository root. */
const shots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-results', 'oauth-screens');

/** The connection row of a provider: Connected, the account, the calendar counts, a last sync. */
async function expectConnectedRow(page: Page, label: string, account: string) {
  const row = page.getByTestId('connection-row').filter({ hasText: label });
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  await expect(row.getByText('Connected', { exact: true })).toBeVisible();
  await expect(row).toContainText(account);
  await expect(row).toContainText(/[1-9]\d* of [1-9]\d* calendars included/, { timeout: 20_000 });
  await expect(row).not.toContainText('Last synced: Never', { timeout: 20_000 });
  await expect(row.getByRole('button', { name: 'Disconnect' })).toBeVisible();
  return row;
}

async function openPublicPage(browser: Browser, baseURL: string | undefined, username: string) {
  const visitor = await browser.newContext({ locale: 'en-GB', timezoneId: OWNER_ZONE, baseURL });
  const pub = await visitor.newPage();
  // Next week, by its address: the page opens on the first week with free time, which may already be next week.
  await pub.goto(`/${username}?date=${nextWeekMonday(OWNER_ZONE)}`);
  return { visitor, pub };
}

async function expectNoSecrets(pub: Page, secrets: string[]) {
  const html = await pub.content();
  for (const s of secrets) {
    expect(html).not.toContain(s);
    await expect(pub.getByText(s)).toHaveCount(0);
  }
}

test('Google: a cancelled consent, then connect in a popup, the event is busy on the public page, a push notification updates it, an expired grant reconnects', async ({ page, browser, baseURL }) => {
  expect(await fakeRunning('google'), 'global-setup starts the Google fake (server/test/fakes/google-calendar-fake.ts)').toBe(true);
  const monday = nextWeekMonday(OWNER_ZONE);
  const title = 'Secret Google Strategy';
  await fakeCall('google', 'putEvent', GOOGLE_ACCOUNT, {
    id: 'e2egoogle1',
    summary: title,
    description: 'Project Nightingale',
    start: { dateTime: zonedDateTime(monday, '10:00', OWNER_ZONE), timeZone: OWNER_ZONE },
    end: { dateTime: zonedDateTime(monday, '11:00', OWNER_ZONE), timeZone: OWNER_ZONE },
  });

  const acct = uniqueAccount('goog');
  await onboardedOwner(page, acct);
  await page.goto('/app/settings#calendars');

  // Cancel on the consent page: the callback page tells the opener and closes; the spec's message.
  {
    const popupPromise = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Connect Google Calendar' }).click();
    const popup = await popupPromise;
    const closed = popup.waitForEvent('close', { timeout: 20_000 });
    await popup.locator('#deny').click();
    await closed;
    await expect(page.locator('#calendars').getByRole('alert')).toContainText('Failed to connect Google Calendar. Please try again.');
    await expect(page.getByTestId('connection-row')).toHaveCount(0);
  }

  await connectThroughPopup(page, 'google');
  await expectConnectedRow(page, 'Google Calendar', GOOGLE_ACCOUNT);
  const card = page.locator('.provider-card', { hasText: 'Google Calendar' });
  await expect(card).toContainText(`Connected as ${GOOGLE_ACCOUNT}`);
  await expect(card.getByRole('button', { name: /Connect/ })).toHaveCount(0);

  // The owner sees the event, titled, in the dashboard's week preview.
  await page.getByRole('link', { name: 'Back to dashboard' }).click();
  await page.getByRole('button', { name: 'Next week' }).click();
  await expect(page.locator('.cal-event', { hasText: title })).toBeVisible({ timeout: 15_000 });

  // A visitor sees Monday 09:00–17:00 split by the busy hour, and never its title.
  const { visitor, pub } = await openPublicPage(browser, baseURL, acct.username);
  await expect(pub.getByRole('button', { name: /^Free Mon \d+ \w+, 09:00–10:00 / })).toBeVisible();
  await expect(pub.getByRole('button', { name: /^Free Mon \d+ \w+, 11:00–17:00 / })).toBeVisible();
  await expectNoSecrets(pub, [title, 'Project Nightingale']);

  // Push: a new event in the fake, Google's notification on the server's channel → the public
  // page shows it within 3 s (reloading).
  const activeChannel = async () =>
    (await fakeState('google')).channels?.filter((c) => !c.stopped && c.calendarId === GOOGLE_ACCOUNT).at(-1)?.id as string | undefined;
  let channel: string | undefined;
  await expect
    .poll(async () => (channel = await activeChannel()), { message: 'the server opened a push channel (events.watch) on the primary calendar', timeout: 15_000 })
    .toBeTruthy();
  await fakeCall('google', 'putEvent', GOOGLE_ACCOUNT, {
    id: 'e2egoogle2',
    summary: 'Secret Google Offsite',
    start: { dateTime: zonedDateTime(monday, '14:00', OWNER_ZONE), timeZone: OWNER_ZONE },
    end: { dateTime: zonedDateTime(monday, '15:00', OWNER_ZONE), timeZone: OWNER_ZONE },
  });
  const status = await fakeCall<number>('google', 'notify', channel!, 'exists');
  expect(status).toBeLessThan(300);
  await expect(async () => {
    await pub.reload(); // the address keeps next week's date
    await expect(pub.getByRole('button', { name: /^Free Mon \d+ \w+, 11:00–14:00 / })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 3_000, intervals: [100, 250, 250, 500] });
  await expect(pub.getByRole('button', { name: /^Free Mon \d+ \w+, 15:00–17:00 / })).toBeVisible();
  await expectNoSecrets(pub, [title, 'Secret Google Offsite']);
  await visitor.close();

  // Google revokes the grant: the next sync marks the connection Expired and the card offers
  // Reconnect, which runs the same popup and brings it back to Connected.
  await fakeCall('google', 'expireAccessTokens');
  await fakeCall('google', 'revokeRefreshToken');
  await page.goto('/app/settings#calendars');
  const row = page.getByTestId('connection-row').filter({ hasText: 'Google Calendar' });
  await page.getByRole('button', { name: 'Sync Now' }).click();
  await expect(row.getByText('Expired', { exact: true })).toBeVisible({ timeout: 20_000 });
  // Issue 23 widens T-31: an expired connection can be removed (Disconnect) and offers Reconnect in its row too.
  await expect(row.getByRole('button', { name: 'Disconnect' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Reconnect' })).toBeVisible();
  await expect(card).toContainText('Expired');
  await saveScreenshot(page.locator('#calendars'), { path: `${shots}/my-calendars-expired-1280.png` });
  const reconnect = card.getByRole('button', { name: 'Reconnect Google Calendar' });
  await expect(reconnect).toBeEnabled();
  const popupPromise = page.waitForEvent('popup');
  await reconnect.click();
  const popup = await popupPromise;
  const closed = popup.waitForEvent('close', { timeout: 20_000 });
  await popup.locator('#allow').click();
  await closed;
  await expect(row.getByText('Connected', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('connection-row')).toHaveCount(1);
  await expect(card).toContainText(`Connected as ${GOOGLE_ACCOUNT}`);
});

test('Microsoft: connect in a popup, the event is busy on the public page, a change notification updates it, disconnect', async ({ page, browser, baseURL }) => {
  expect(await fakeRunning('microsoft'), 'global-setup starts the Microsoft fake (server/test/fakes/microsoft-graph-fake.ts)').toBe(true);
  const monday = nextWeekMonday(OWNER_ZONE);
  const title = 'Secret Outlook Review';
  // The Graph fake starts without calendars: this run's owner gets one.
  const calendarId = await fakeCall<string>('microsoft', 'addCalendar', 'Calendar');
  await fakeCall('microsoft', 'putEvent', calendarId, {
    id: 'e2emicrosoft1',
    subject: title,
    showAs: 'busy',
    start: zonedDateTime(monday, '13:00', OWNER_ZONE),
    end: zonedDateTime(monday, '14:30', OWNER_ZONE),
  });

  const acct = uniqueAccount('msft');
  await onboardedOwner(page, acct);
  await page.goto('/app/settings#calendars');
  await expect(page.getByRole('button', { name: 'Coming Soon' })).toHaveCount(0);
  await connectThroughPopup(page, 'microsoft');
  await expectConnectedRow(page, 'Microsoft Outlook', MICROSOFT_ACCOUNT);
  await expect(page.locator('.provider-card', { hasText: 'Microsoft Outlook' })).toContainText(`Connected as ${MICROSOFT_ACCOUNT}`);

  // Screenshots of Settings → My Calendars with a live connection (not committed).
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await saveScreenshot(page.locator('#calendars'), { path: `${shots}/my-calendars-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // Sync Now: loading, then 'Sync Complete', back after 5 s.
  await page.getByRole('button', { name: 'Sync Now' }).click();
  await expect(page.getByRole('button', { name: /Sync Complete/ })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Sync Now' })).toBeVisible({ timeout: 8_000 });

  await page.getByRole('link', { name: 'Back to dashboard' }).click();
  await page.getByRole('button', { name: 'Next week' }).click();
  await expect(page.locator('.cal-event', { hasText: title })).toBeVisible({ timeout: 15_000 });

  const { visitor, pub } = await openPublicPage(browser, baseURL, acct.username);
  await expect(pub.getByRole('button', { name: /^Free Mon \d+ \w+, 09:00–13:00 / })).toBeVisible();
  await expect(pub.getByRole('button', { name: /^Free Mon \d+ \w+, 14:30–17:00 / })).toBeVisible();
  await expectNoSecrets(pub, [title]);

  // Push: a new event in the fake, Graph's change notification on the server's subscription →
  // the public page shows it within 3 s (reloading).
  let subscription: string | undefined;
  await expect
    .poll(async () => (subscription = (await fakeState('microsoft')).subscriptions?.at(-1)?.id as string | undefined), {
      message: 'the server created a Graph subscription',
      timeout: 15_000,
    })
    .toBeTruthy();
  const second = await fakeCall<string>('microsoft', 'putEvent', calendarId, {
    id: 'e2emicrosoft2',
    subject: 'Secret Outlook Offsite',
    showAs: 'oof',
    start: zonedDateTime(monday, '15:00', OWNER_ZONE),
    end: zonedDateTime(monday, '16:00', OWNER_ZONE),
  });
  expect(await fakeCall<number>('microsoft', 'notify', subscription!, { changeType: 'created', eventId: second })).toBeLessThan(300);
  await expect(async () => {
    await pub.reload(); // the address keeps next week's date
    await expect(pub.getByRole('button', { name: /^Free Mon \d+ \w+, 14:30–15:00 / })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 3_000, intervals: [100, 250, 250, 500] });
  await expect(pub.getByRole('button', { name: /^Free Mon \d+ \w+, 16:00–17:00 / })).toBeVisible();
  await expectNoSecrets(pub, [title, 'Secret Outlook Offsite']);
  await visitor.close();

  // Disconnect: the spec's confirmation; the row goes, the card offers Connect again.
  await page.goto('/app/settings#calendars');
  const row = page.getByTestId('connection-row').filter({ hasText: 'Microsoft Outlook' });
  await row.getByRole('button', { name: 'Disconnect' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('cached events will be removed');
  const disconnectCall = page.waitForRequest((r) => r.method() === 'DELETE' && new URL(r.url()).pathname === '/api/me/calendar/microsoft/disconnect');
  await confirm.getByRole('button', { name: 'Disconnect' }).click();
  await disconnectCall; // spec §7: DELETE /me/calendar/microsoft/disconnect
  await expect(row).toHaveCount(0, { timeout: 15_000 });
  await expect(page.locator('.provider-card', { hasText: 'Microsoft Outlook' }).getByRole('button', { name: 'Connect Microsoft Outlook' })).toBeEnabled();
});

test('a provider the server reports unavailable, and a failed connect, per the spec', async ({ page }) => {
  const acct = uniqueAccount('unav');
  await onboardedOwner(page, acct);
  const reason = 'Google Calendar is not configured on this server.';
  await page.route('**/api/me/calendar/providers', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        providers: { google: { available: false, reason }, microsoft: { available: true, reason: null }, apple: { available: true, reason: null } },
      }),
    }),
  );
  await page.goto('/app/settings#calendars');
  const google = page.locator('.provider-card', { hasText: 'Google Calendar' });
  const googleButton = google.getByRole('button', { name: 'Connect Google Calendar' });
  await expect(google.getByText(`Unavailable: ${reason}`)).toBeVisible();
  await expect(googleButton).toBeDisabled();
  await expect(googleButton).toHaveAccessibleDescription(`Unavailable: ${reason}`);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await saveScreenshot(page.locator('#calendars'), { path: `${shots}/my-calendars-unavailable-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // Keyboard: Microsoft's Connect is reachable and opens the popup; a failed connect closes it
  // and shows the spec's message.
  await page.route('**/api/me/calendar/microsoft/connect', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
  const microsoft = page.locator('.provider-card', { hasText: 'Microsoft Outlook' });
  await microsoft.getByRole('button', { name: 'Connect Microsoft Outlook' }).focus();
  const popupPromise = page.waitForEvent('popup');
  await page.keyboard.press('Enter');
  const popup = await popupPromise;
  await expect(page.locator('#calendars').getByRole('alert')).toContainText('Failed to connect Microsoft Outlook Calendar. Please try again.');
  await expect.poll(() => popup.isClosed()).toBe(true);
  await expect(microsoft.getByRole('button', { name: 'Connect Microsoft Outlook' })).toBeEnabled();

  // A 503 provider_unavailable answer marks the provider unavailable with the server's reason.
  const msReason = 'Microsoft Outlook is not configured on this server.';
  await page.unroute('**/api/me/calendar/microsoft/connect');
  await page.route('**/api/me/calendar/microsoft/connect', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: msReason, code: 'provider_unavailable' }) }),
  );
  await microsoft.getByRole('button', { name: 'Connect Microsoft Outlook' }).click();
  await expect(page.locator('#calendars').getByRole('alert')).toContainText('Failed to connect Microsoft Outlook Calendar. Please try again.');
  await expect(microsoft.getByText(`Unavailable: ${msReason}`)).toBeVisible();
  await expect(microsoft.getByRole('button', { name: 'Connect Microsoft Outlook' })).toBeDisabled();
});
