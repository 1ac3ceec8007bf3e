/** Settings, the dashboard's empty state, and onboarding navigation for a verified user without a schedule. */
import { expect, test } from '@playwright/test';
import { uniqueAccount } from './fixtures.ts';
import { registerVerified } from './helpers.ts';

test('a verified user without a schedule: empty states, settings sections, calendar connect/disconnect, timezone save', async ({ page }) => {
  const acct = { ...uniqueAccount('sett'), name: 'Sam Tester' };
  await registerVerified(page, acct);

  // Onboarding: no Back on step 1; Back on step 2 returns to step 1.
  await expect(page.getByRole('button', { name: 'Back' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Get Started' }).click();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('button', { name: 'Get Started' })).toBeVisible();

  // Dashboard without rules.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await expect(page.getByText('ST', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No availability set' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Set your availability' })).toHaveAttribute('href', '/app/availability');
  await page.getByRole('link', { name: 'Set your availability' }).click();
  await expect(page.getByRole('link', { name: 'Go to onboarding' })).toHaveAttribute('href', '/app/onboarding');

  // Edit Schedule: the modal starts with Monday 09:00–17:00, validates, and saves.
  await page.getByRole('button', { name: 'Edit Schedule' }).click();
  const modal = page.getByRole('dialog', { name: 'Edit Schedule' });
  await expect(modal.getByLabel('Day')).toHaveValue('0');
  await expect(modal.getByRole('button', { name: 'Remove slot 1' })).toBeDisabled();
  await modal.getByLabel('End').fill('08:00');
  await modal.getByRole('button', { name: 'Save Schedule' }).click();
  await expect(modal.getByText('End time must be after start time')).toBeVisible();
  await modal.getByLabel('End').fill('12:00');
  await modal.getByRole('button', { name: 'Save Schedule' }).click();
  await expect(page.getByText('Availability updated successfully!')).toBeVisible();
  await expect(page.getByTestId('availability-summary')).toContainText('1 slot across 1 day');
  await expect(page.getByText('9:00 AM - 12:00 PM')).toBeVisible();
  await page.getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByText('No analytics data yet')).toBeVisible();

  // Settings sections.
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/app\/settings$/);
  await expect(page.getByRole('heading', { name: 'My Calendars' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText('Coming soon');
  // Issue 23 overrides S-04: Privacy & Security works (Delete account), so it is not badged "Coming soon".
  await expect(page.getByRole('region', { name: 'Privacy & Security' }).locator('.card-header .badge')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Privacy & Security' }).getByRole('button', { name: 'Delete account' })).toBeVisible();
  // Google and Microsoft are configured in this run (global-setup's fakes): both can connect.
  await expect(page.locator('.provider-card', { hasText: 'Google Calendar' }).getByRole('button', { name: 'Connect Google Calendar' })).toBeEnabled();
  await expect(page.locator('.provider-card', { hasText: 'Microsoft Outlook' }).getByRole('button', { name: 'Connect Microsoft Outlook' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Coming Soon' })).toHaveCount(0);

  // Apple: both fields required; the help modal has six steps.
  await page.locator('.provider-card', { hasText: 'Apple iCloud' }).getByRole('button', { name: 'Connect' }).click();
  await page.getByLabel('Apple ID').fill('someone@icloud.com');
  await page.getByRole('button', { name: 'Connect Apple Calendar' }).click();
  await expect(page.getByText('Please enter both Apple ID and app-specific password.')).toBeVisible();
  await page.getByRole('button', { name: 'How do I create an app-specific password?' }).click();
  const help = page.getByRole('dialog', { name: 'Create an app-specific password' });
  await expect(help.locator('ol > li')).toHaveCount(6);
  await expect(help.getByRole('link', { name: 'appleid.apple.com' })).toHaveAttribute('href', 'https://appleid.apple.com');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Profile: save a timezone; it persists.
  await page.getByLabel('Timezone').selectOption('Europe/Paris');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Timezone updated to Europe/Paris!')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Timezone')).toHaveValue('Europe/Paris');

  // Connect an ICS feed, then disconnect it through the confirmation.
  await page.locator('.provider-card', { hasText: 'ICS feed URL' }).getByRole('button', { name: 'Connect' }).click();
  await page.getByLabel('Calendar feed URL').fill(process.env.E2E_ICS_URL!);
  await page.getByRole('button', { name: 'Connect feed' }).click();
  const row = page.getByTestId('connection-row');
  await expect(row.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('1 of 1 calendars included');
  await row.getByRole('button', { name: 'Disconnect' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('cached events will be removed');
  await confirm.getByRole('button', { name: 'Disconnect' }).click();
  await expect(row).toHaveCount(0);

  // Back arrow to the dashboard.
  await page.getByRole('link', { name: 'Back to dashboard' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
});

test('Apple connect alerts: the error stays 10 s, the success 5 s (spec §4 Alerts, fake clock)', async ({ page }) => {
  await page.clock.install();
  await registerVerified(page, uniqueAccount('apple'));
  await page.goto('/app/settings');
  const card = page.locator('.provider-card', { hasText: 'Apple iCloud' });
  await expect(card.getByRole('button', { name: 'Connect' })).toBeVisible();

  // iCloud can't be reached from a test: answer the connect call the way the server does.
  let answer: { status: number; body: unknown } = { status: 400, body: { error: '' } };
  await page.route('**/api/me/calendar/apple/connect', (route) =>
    route.fulfill({ status: answer.status, contentType: 'application/json', body: JSON.stringify(answer.body) }),
  );

  await card.getByRole('button', { name: 'Connect' }).click();
  await page.getByLabel('Apple ID').fill('someone@icloud.com');
  await page.getByLabel('App-specific password').fill('abcd-efgh-ijkl-mnop');
  const error = page.getByRole('alert').filter({ hasText: 'Invalid credentials. Please check your Apple ID and app-specific password.' });
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 500);
  await page.getByRole('button', { name: 'Connect Apple Calendar' }).click();
  await expect(error).toBeVisible();
  await page.clock.runFor(9_800);
  await expect(error).toBeVisible();
  await page.clock.runFor(400);
  await expect(error).toHaveCount(0);

  answer = {
    status: 201,
    body: { connection: { id: 'c1', provider: 'apple', name: 'iCloud', status: 'active', connected_at: new Date().toISOString(), calendars_count: 1, included_calendars_count: 1, last_synced_at: null, last_error: null } },
  };
  await page.getByRole('button', { name: 'Connect Apple Calendar' }).click();
  const success = page.locator('.alert[role="status"]').filter({ hasText: 'Apple Calendar connected successfully!' });
  await expect(success).toBeVisible();
  await page.clock.runFor(4_800);
  await expect(success).toBeVisible();
  await page.clock.runFor(400);
  await expect(success).toHaveCount(0);
  await page.clock.resume();
});
