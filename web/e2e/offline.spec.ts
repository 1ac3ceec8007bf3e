/**
 * Local-first (issue 3) in the browser against the real server: the owner edits the weekly
 * schedule while offline, the edit stays on the device as pending through a reload (service worker
 * app shell + RxDB on IndexedDB + the cached session), and syncs when the network is back — the
 * visitor's public page then shows it. Also: visitors' pages never load the device-database code.
 */
import { expect, test } from '@playwright/test';
import { nextWeekMonday, OWNER_ZONE, uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

// The app-shell service worker is what lets a reload work offline (the config blocks workers elsewhere).
test.use({ serviceWorkers: 'allow' });

test('a schedule edited offline stays pending through a reload and syncs when back online', async ({ page, context, browser, baseURL }) => {
  const acct = uniqueAccount('offl');
  await onboardedOwner(page, acct);
  const status = page.getByTestId('sync-status');

  await page.getByRole('link', { name: 'Availability' }).click();
  await expect(page.getByTestId('availability-summary')).toContainText('1 slot across 1 day');
  // The device database has synced with the server, and the service worker controls the page.
  await expect(status).toHaveText('Online', { timeout: 30_000 });
  await expect(status).toHaveAttribute('role', 'status');
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 15_000 });

  await context.setOffline(true);
  await expect(status).toHaveText('Offline');

  // Edit: Monday ends at 12:00 and Wednesday 13:00–15:00 is added.
  await page.getByRole('button', { name: 'Edit Schedule' }).click();
  const modal = page.getByRole('dialog', { name: 'Edit Schedule' });
  await modal.getByLabel('End').first().fill('12:00');
  await modal.getByRole('button', { name: /Add Another Time Slot/ }).click();
  await modal.getByLabel('Day').nth(1).selectOption('2');
  await modal.getByLabel('Start').nth(1).fill('13:00');
  await modal.getByLabel('End').nth(1).fill('15:00');
  await modal.getByRole('button', { name: 'Save Schedule' }).click();
  await expect(page.getByText('Availability updated successfully!')).toBeVisible();
  await expect(page.getByTestId('availability-summary')).toContainText('2 slots across 2 days');
  await expect(page.getByText('Changes pending sync')).toBeVisible();
  await expect(page.getByText('1:00 PM - 3:00 PM')).toBeVisible();
  await expect(status).toHaveText('Offline');

  // A reload while offline: the shell comes from the service worker, the session from the
  // device's last known user, the schedule and its pending state from IndexedDB.
  await page.reload();
  await expect(page).toHaveURL(/\/app\/availability$/);
  await expect(page.getByTestId('availability-summary')).toContainText('2 slots across 2 days');
  await expect(page.getByText('9:00 AM - 12:00 PM')).toBeVisible();
  await expect(page.getByText('1:00 PM - 3:00 PM')).toBeVisible();
  await expect(page.getByText('Changes pending sync')).toBeVisible();
  await expect(status).toHaveText('Offline');

  // Back online: the edit is pushed, nothing is pending and the header says so.
  await context.setOffline(false);
  await expect(status).toHaveText('Online', { timeout: 30_000 });
  await expect(page.getByText('Changes pending sync')).toHaveCount(0);

  // A visitor sees the new windows (next week: every day of it is in the future).
  const visitor = await browser.newContext({ locale: 'en-GB', timezoneId: OWNER_ZONE, baseURL });
  const pub = await visitor.newPage();
  // Next week by its address (without a date the page opens on the first week with free time).
  await pub.goto(`/${acct.username}?date=${nextWeekMonday(OWNER_ZONE)}`);
  await expect(pub.getByRole('heading', { name: `${acct.name}'s Availability` })).toBeVisible();
  await expect(pub.getByRole('button', { name: /^Free Mon \d+ \w+, 09:00–12:00 / })).toBeVisible();
  await expect(pub.getByRole('button', { name: /^Free Wed \d+ \w+, 13:00–15:00 / })).toBeVisible();
  await expect(pub.getByRole('button', { name: /^Free Mon \d+ \w+, 09:00–17:00 / })).toHaveCount(0);
  await visitor.close();
});

test('a change made elsewhere shows up live, tabs share the device data; a session ended on the server signs the device out', async ({ page }) => {
  const acct = uniqueAccount('live');
  await onboardedOwner(page, acct);
  await page.getByRole('link', { name: 'Availability' }).click();
  await expect(page.getByTestId('sync-status')).toHaveText('Online', { timeout: 30_000 });
  await expect(page.getByTestId('availability-summary')).toContainText('1 slot across 1 day');

  // Another client (here: the REST API with the same token) replaces the schedule; the server's
  // replication stream brings it to this page's device database and the screen re-renders.
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  expect(token).toBeTruthy();
  const auth = { Authorization: `Bearer ${token}` };
  const res = await page.request.post('/api/me/availability-rules', {
    headers: auth,
    data: { rules: [{ weekday: 4, start_time_local: '10:00', end_time_local: '11:30' }, { weekday: 5, start_time_local: '08:00', end_time_local: '09:00' }] },
  });
  expect(res.ok()).toBe(true);
  await expect(page.getByTestId('availability-summary')).toContainText('2 slots across 2 days');
  await expect(page.getByText('10:00 AM - 11:30 AM')).toBeVisible();

  // A second tab shares the device database: an edit saved in one shows in the other.
  const tab2 = await page.context().newPage();
  await tab2.goto('/app/availability');
  await expect(tab2.getByTestId('availability-summary')).toContainText('2 slots across 2 days');
  await page.getByRole('button', { name: 'Edit Schedule' }).click();
  await page.getByRole('dialog', { name: 'Edit Schedule' }).getByLabel('End').first().fill('12:00');
  await page.getByRole('dialog', { name: 'Edit Schedule' }).getByRole('button', { name: 'Save Schedule' }).click();
  await expect(tab2.getByText('10:00 AM - 12:00 PM')).toBeVisible();
  await tab2.close();

  // The session ends on the server: the replication's next request gets 401 and the device signs
  // out like any other 401 (to /login, token and local data gone).
  expect((await page.request.post('/api/auth/logout', { headers: auth })).ok()).toBe(true);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(page).toHaveURL(/\/login$/, { timeout: 20_000 });
  expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
});

test('the landing page and a public page never load the device database (RxDB/Dexie)', async ({ browser, baseURL }) => {
  const visitor = await browser.newContext({ locale: 'en-GB', timezoneId: OWNER_ZONE, baseURL });
  const page = await visitor.newPage();
  const scripts: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
  });
  await page.goto('/');
  await expect(page.getByRole('link', { name: /get started|sign up|create/i }).first()).toBeVisible();
  await page.goto('/no-such-owner-here');
  await expect(page.getByText(/not found/i).first()).toBeVisible();
  await page.goto('/u/no-such-owner-here');
  await expect(page.getByText(/not found/i).first()).toBeVisible();
  expect(scripts.length).toBeGreaterThan(2);
  expect(scripts.filter((s) => /local-db|rxdb|dexie/i.test(s))).toEqual([]);
  await visitor.close();
});
