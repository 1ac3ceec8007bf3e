/**
 * Honest freshness (issue 14 item 3): when one of the owner's calendars stops syncing, visitors read
 * "Availability may be out of date (last checked …)" and the owner's dashboard names the calendar
 * and the fix.
 */
import { expect, test } from '@playwright/test';
import { OWNER_ZONE, uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

test('a calendar that fails: the public page says it may be out of date, the dashboard says which and what to do', async ({ page, browser, baseURL }) => {
  const acct = uniqueAccount('fresh');
  await onboardedOwner(page, acct);

  // A visitor first sees no notice (no calendar connected).
  const visitor = await browser.newContext({ locale: 'en-GB', timezoneId: OWNER_ZONE, baseURL });
  const pub = await visitor.newPage();
  await pub.goto(`/${acct.username}`);
  await expect(pub.locator('.pub-loading')).toHaveCount(0, { timeout: 15_000 });
  await expect(pub.getByTestId('pub-stale')).toHaveCount(0);

  // A feed that answers once, then fails.
  await page.goto('/app/settings');
  await page.locator('.provider-card', { hasText: 'ICS feed URL' }).getByRole('button', { name: 'Connect' }).click();
  const feedUrl = process.env.E2E_ICS_URL!.replace('/calendar.ics', `/once/${acct.username}.ics`);
  await page.getByLabel('Calendar feed URL').fill(feedUrl);
  await page.getByRole('button', { name: 'Connect feed' }).click();
  const row = page.getByTestId('connection-row');
  await expect(row.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Sync Now' }).click();
  await expect(row.getByText('Error', { exact: true })).toBeVisible({ timeout: 30_000 });

  await pub.reload();
  await expect(pub.getByTestId('pub-stale')).toHaveText(/^Availability may be out of date \(last checked .+, \d{2}:\d{2}\)\.$/, { timeout: 15_000 });

  await page.goto('/app/dashboard');
  const alert = page.locator('.stale-calendars');
  await expect(alert).toContainText('Your public page says your availability may be out of date.');
  await expect(alert).toContainText('(ICS feed)');
  await expect(alert).toContainText('Sync Now');
  await visitor.close();
});
