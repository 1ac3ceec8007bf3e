/**
 * Which calendars count as busy (issue 23), in Chromium against the real server and the Google
 * fake: a Google account that also lists "Holidays in Belgium" (a reader calendar) → Settings → My
 * Calendars → the connection's Calendars lists both, the owner's own on and the holidays off (new
 * connections: subscribed calendars leave the owner free) → the holiday's hour is free on the
 * public page → switching it on makes that hour busy on the public page at once; at 375 px the
 * list fits the screen; axe (every rule) finds nothing in the open list, light or dark.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { GOOGLE_ACCOUNT, fakeCall, fakeRunning } from './fakes-control.ts';
import { nextWeekMonday, OWNER_ZONE, uniqueAccount, zonedDateTime } from './fixtures.ts';
import { axeViolations, onboardedOwner } from './helpers.ts';
import { connectThroughPopup } from './oauth-popup.ts';

const HOLIDAYS = 'e2e-holidays-be@group.v.calendar.google.com';

async function publicMonday(browser: Browser, baseURL: string | undefined, username: string): Promise<{ close(): Promise<void>; page: Page }> {
  const visitor = await browser.newContext({ locale: 'en-GB', timezoneId: OWNER_ZONE, baseURL });
  const page = await visitor.newPage();
  await page.goto(`/${username}?date=${nextWeekMonday(OWNER_ZONE)}`);
  return { page, close: () => visitor.close() };
}

test.afterAll(async () => {
  // The fake is shared by every spec: leave its account as it was.
  if (await fakeRunning('google')) await fakeCall('google', 'removeCalendar', HOLIDAYS);
});

test('Google: a holidays calendar starts switched off; switching it on makes its hours busy on the public page at once', async ({ page, browser, baseURL }) => {
  expect(await fakeRunning('google'), 'global-setup starts the Google fake').toBe(true);
  const monday = nextWeekMonday(OWNER_ZONE);
  await fakeCall('google', 'addCalendar', { id: HOLIDAYS, summary: 'Holidays in Belgium', accessRole: 'reader', backgroundColor: '#16a765' });
  await fakeCall('google', 'putEvent', HOLIDAYS, {
    id: 'e2eholiday1',
    summary: 'Secret holiday',
    start: { dateTime: zonedDateTime(monday, '13:00', OWNER_ZONE), timeZone: OWNER_ZONE },
    end: { dateTime: zonedDateTime(monday, '14:00', OWNER_ZONE), timeZone: OWNER_ZONE },
  });

  const acct = uniqueAccount('pick');
  await onboardedOwner(page, acct);
  await page.goto('/app/settings#calendars');
  await connectThroughPopup(page, 'google');
  const row = page.getByTestId('connection-row').filter({ hasText: 'Google Calendar' });
  await expect(row).toHaveCount(1, { timeout: 20_000 });

  // The list: the owner's calendar counts, the holidays do not (a subscribed, read-only calendar).
  const calendars = row.locator('details.connection-calendars');
  await expect(calendars.locator('summary')).toContainText(/of \d+ calendars count as busy/);
  await calendars.locator('summary').click();
  const holidays = page.getByRole('switch', { name: /Holidays in Belgium/ });
  const own = page.getByRole('switch', { name: new RegExp(GOOGLE_ACCOUNT.replace(/\./g, '\\.')) });
  await expect(holidays).toHaveAttribute('aria-checked', 'false');
  await expect(own).toHaveAttribute('aria-checked', 'true');
  await expect(row.getByTestId('calendar-switch').filter({ hasText: 'Holidays in Belgium' })).toContainText('Not counted: its events leave you free · read-only');

  // axe, every rule, on the open list in light and dark.
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await axeViolations(page, { include: '#calendars' }), colorScheme).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // The holiday's hour is free for visitors (Monday 09:00–17:00 has no window ending at 13:00).
  const before = await publicMonday(browser, baseURL, acct.username);
  await expect(before.page.getByRole('button', { name: /^Free Mon \d+ \w+, \d\d:\d\d–/ }).first()).toBeVisible();
  await expect(before.page.getByRole('button', { name: /^Free Mon \d+ \w+, \d\d:\d\d–13:00 / })).toHaveCount(0);
  await expect(before.page.getByText('Secret holiday')).toHaveCount(0);
  await before.close();

  // Switch it on: saved at once, the visitor's page shows 13:00–14:00 busy.
  await holidays.click();
  await expect(holidays).toHaveAttribute('aria-checked', 'true');
  await expect(row).toContainText('Holidays in Belgium now counts as busy. Your public page follows it now.');
  const after = await publicMonday(browser, baseURL, acct.username);
  await expect(after.page.getByRole('button', { name: /^Free Mon \d+ \w+, \d\d:\d\d–13:00 / })).toHaveCount(1);
  await expect(after.page.getByRole('button', { name: /^Free Mon \d+ \w+, 14:00–17:00 / })).toHaveCount(1);
  await expect(after.page.getByText('Secret holiday')).toHaveCount(0);
  await after.close();

  // Still so after a reload; at 375 px the list fits the screen and the switch keeps its label.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  const again = page.getByTestId('connection-row').filter({ hasText: 'Google Calendar' }).locator('details.connection-calendars');
  await again.locator('summary').click();
  await expect(page.getByRole('switch', { name: /Holidays in Belgium/ })).toHaveAttribute('aria-checked', 'true');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  const box = await page.getByRole('switch', { name: /Holidays in Belgium/ }).boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(375);
});
