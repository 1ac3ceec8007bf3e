/**
 * Issue 14 item 8: times are entered in 24-hour form everywhere, whatever the browser's locale; the
 * public page's logo lines up with its content column.
 */
import { expect, test } from '@playwright/test';
import { uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

test.use({ locale: 'en-US' });

test('an en-US browser shows and takes 24-hour times; the public header lines up with the content', async ({ page }) => {
  const acct = uniqueAccount('h24');
  await onboardedOwner(page, acct);
  await page.goto('/app/availability');
  await page.getByRole('button', { name: 'Edit Schedule' }).click();
  const modal = page.getByRole('dialog', { name: 'Edit Schedule' });
  await expect(modal.getByText('24-hour format', { exact: false })).toBeVisible();
  const start = modal.getByLabel('Start');
  await expect(start).toHaveValue('09:00');
  await expect(start).toHaveAttribute('placeholder', 'HH:MM');
  await start.fill('930');
  await modal.getByLabel('End').click(); // blur
  await expect(start).toHaveValue('09:30');
  await modal.getByLabel('End').fill('1730');
  await modal.getByRole('button', { name: 'Save Schedule' }).click();
  await expect(page.getByText('Availability updated successfully!')).toBeVisible();
  await expect(page.getByText('9:30 AM - 5:30 PM')).toBeVisible(); // the list reads in 12-hour words, entry is 24-hour

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/${acct.username}`);
    const logo = await page.locator('.pub-header .logo').boundingBox();
    const column = await page.locator('.pub-main > *').first().boundingBox();
    expect(Math.abs(logo!.x - column!.x), `at ${width} px`).toBeLessThanOrEqual(1);
  }
});
