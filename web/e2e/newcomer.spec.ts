/**
 * The newcomer path end to end against the real server: register → verify with the mailed code →
 * onboarding → dashboard → Settings → connect an ICS feed → the public page, opened by an
 * anonymous visitor, shows free windows split by the busy event and never its title.
 */
import { expect, test, type Page, type Response } from '@playwright/test';
import { nextWeekMonday, OWNER_ZONE, SECRET_TITLE, uniqueAccount, waitForVerificationCode } from './fixtures.ts';

const PASSWORD = 'correct-horse-42';
const owner = uniqueAccount('owner');

test.describe.configure({ mode: 'serial' });

async function registerAndVerify(page: Page) {
  await page.goto('/register');
  await page.getByLabel('Full name').fill(owner.name);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/verify-email\?email=/);
  expect(new URL(page.url()).searchParams.get('email')).toBe(owner.email);

  const code = await waitForVerificationCode(owner.email);
  const input = page.getByLabel('Verification code');
  await expect(input).toHaveAttribute('placeholder', '000000');
  await expect(input).toHaveAttribute('maxlength', '6');
  const verify = page.getByRole('button', { name: 'Verify Email' });
  await input.fill(code.slice(0, 5));
  await expect(verify).toBeDisabled();
  await input.fill(code);
  await expect(verify).toBeEnabled();
  await verify.click();
  await expect(page.getByRole('heading', { name: 'Welcome aboard' })).toBeVisible();
  await expect(page.getByText('Congratulations')).toBeVisible();
  await expect(page.getByText('Redirecting to onboarding...')).toBeVisible();
  await expect(page).toHaveURL(/\/app\/onboarding$/, { timeout: 10_000 });
}

async function onboard(page: Page) {
  await page.getByRole('button', { name: 'Get Started' }).click();

  // Step 2: timezone (the browser zone is in the list, so it is preselected), live time shown.
  await expect(page.getByRole('heading', { name: 'Choose your timezone' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Europe/Brussels' })).toBeChecked();
  await expect(page.getByTestId('tz-current-time')).not.toBeEmpty();
  await page.getByLabel('Search timezones').fill('tokyo');
  await expect(page.getByRole('radio', { name: 'Asia/Tokyo' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Europe/Paris' })).toHaveCount(0);
  await page.getByLabel('Search timezones').fill('');
  await page.getByRole('button', { name: 'Continue' }).click();

  // Step 3: default Monday 09:00–17:00, then Tuesday–Friday added.
  await expect(page.getByRole('heading', { name: 'Set your weekly schedule' })).toBeVisible();
  await expect(page.getByLabel('Day').first()).toHaveValue('0');
  await expect(page.getByLabel('Start').first()).toHaveValue('09:00');
  await expect(page.getByLabel('End').first()).toHaveValue('17:00');
  for (let weekday = 1; weekday <= 4; weekday++) {
    await page.getByRole('button', { name: /Add Another Time Slot/ }).click();
    await page.getByLabel('Day').nth(weekday).selectOption(String(weekday));
  }
  await expect(page.getByLabel('Day')).toHaveCount(5);
  await page.getByRole('button', { name: 'Continue' }).click();

  // Step 4: username with the live check.
  await expect(page.getByRole('heading', { name: 'Choose your username' })).toBeVisible();
  const username = page.getByLabel('Username');
  await username.fill('ab');
  await expect(page.getByText('Username must be at least 4 characters')).toBeVisible();
  await username.fill('john_doe');
  await expect(page.getByText('Username can only contain letters, numbers, and hyphens')).toBeVisible();
  await username.fill(owner.username);
  await expect(page.getByText('Username is available')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Step 5.
  await expect(page.getByRole('heading', { name: "You're All Set" })).toBeVisible();
  await page.getByRole('button', { name: 'Go to Dashboard' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
}

test('a newcomer shares free windows that never reveal a busy event', async ({ page, browser, baseURL }) => {
  await registerAndVerify(page);
  await onboard(page);

  // Dashboard.
  await expect(page.getByRole('heading', { name: /Welcome back, Olivia/ })).toBeVisible();
  await expect(page.getByText('Total Views')).toBeVisible();
  await expect(page.getByTestId('total-views')).toHaveText('0');
  await expect(page.getByText('This Week', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: /My Calendars/ })).toHaveAttribute('href', '/app/settings#calendars');
  await expect(page.getByRole('heading', { name: 'Your week' })).toBeVisible();

  // Availability tab lists the rules in 12-hour format.
  await page.getByRole('link', { name: 'Availability' }).click();
  await expect(page.getByText('5 slots across 5 days')).toBeVisible();
  await expect(page.getByText('9:00 AM - 5:00 PM').first()).toBeVisible();

  // Settings → connect the ICS feed.
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/app\/settings$/);
  await expect(page.getByRole('heading', { name: 'My Calendars' })).toBeVisible();
  await page.locator('.provider-card', { hasText: 'ICS feed URL' }).getByRole('button', { name: 'Connect' }).click();
  await page.getByLabel('Calendar feed URL').fill(process.env.E2E_ICS_URL!);
  await page.getByRole('button', { name: 'Connect feed' }).click();
  const row = page.getByTestId('connection-row');
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row.getByText('Connected', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Sync Now' }).click();
  await expect(page.getByRole('button', { name: /Sync Complete/ })).toBeVisible({ timeout: 30_000 });
  await expect(row).not.toContainText('Never');

  // The owner sees the event title on their own dashboard, next week.
  await page.getByRole('link', { name: 'Back to dashboard' }).click();
  await page.getByRole('button', { name: 'Next week' }).click();
  await expect(page.locator('.cal-event', { hasText: SECRET_TITLE })).toBeVisible({ timeout: 15_000 });

  // An anonymous visitor in a new browser context.
  const visitor = await browser.newContext({ locale: 'en-GB', timezoneId: OWNER_ZONE, baseURL });
  const pub = await visitor.newPage();
  const bodies: Promise<string>[] = [];
  pub.on('response', (res: Response) => {
    bodies.push(res.body().then((b) => b.toString('utf8')).catch(() => ''));
  });
  const availabilityRequests: string[] = [];
  pub.on('request', (req) => {
    if (req.url().includes('/api/public/')) {
      availabilityRequests.push(req.url());
      expect(req.headers()['authorization']).toBeUndefined();
    }
  });
  await pub.goto(`/${owner.username}`);
  await expect(pub.getByRole('heading', { name: `${owner.name}'s Availability` })).toBeVisible();
  await expect(pub.getByLabel('Times shown in')).toHaveValue(OWNER_ZONE);
  await expect(pub.getByRole('button', { name: 'Week', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(pub.getByText('Pick a time that works for you and propose it. Nothing is booked until it is confirmed by email.')).toBeVisible();
  const first = new URL(availabilityRequests[0]);
  expect(first.searchParams.get('tz')).toBe(OWNER_ZONE);
  expect(first.searchParams.get('range')).toMatch(/^\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}$/);

  // Next week by its address: the page opens on the first week with free time, which may already be next week.
  await pub.goto(`/${owner.username}?date=${nextWeekMonday(OWNER_ZONE)}`);
  // Wednesday 09:00–17:00 is split by the 11:00–12:00 event.
  await expect(pub.getByRole('button', { name: /^Free Wed \d+ \w+, 09:00–11:00 / })).toBeVisible();
  await expect(pub.getByRole('button', { name: /^Free Wed \d+ \w+, 12:00–17:00 / })).toBeVisible();
  await expect(pub.getByRole('button', { name: /^Free Mon \d+ \w+, 09:00–17:00 / })).toBeVisible();
  await pub.getByRole('button', { name: /^Free Mon \d+ \w+, 09:00–17:00 / }).hover();
  await expect(pub.getByRole('tooltip')).toHaveText("Hey, I'm free here");
  // No booking control anywhere.
  await expect(pub.getByRole('button', { name: /book|reserve/i })).toHaveCount(0);
  await pub.getByRole('button', { name: 'Go to current week' }).click();
  await pub.getByRole('button', { name: 'Month', exact: true }).click();
  await expect(pub.getByRole('button', { name: 'Go to current month' })).toBeDisabled();
  await pub.getByRole('button', { name: 'Week', exact: true }).click();
  await pub.getByRole('button', { name: 'Next week' }).click();
  await expect(pub.getByRole('button', { name: /^Free Wed \d+ \w+, 12:00–17:00 / })).toBeVisible();

  // The title, guest and details appear nowhere: page, tooltips, network bodies.
  const html = await pub.content();
  for (const secret of [SECRET_TITLE, 'Boardroom 7', 'guest.person@example.com', 'Initech']) {
    expect(html).not.toContain(secret);
    await expect(pub.getByText(secret)).toHaveCount(0);
  }
  const all = await Promise.all(bodies);
  expect(all.length).toBeGreaterThan(3);
  for (const body of all) {
    expect(body).not.toContain(SECRET_TITLE);
    expect(body).not.toContain('guest.person@example.com');
  }
  // The /u/ reading of the link shows the same page.
  await pub.goto(`/u/${owner.username}`);
  await expect(pub.getByRole('heading', { name: `${owner.name}'s Availability` })).toBeVisible();
  await visitor.close();

  // Logout goes to /login; the protected page then redirects there too.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/app/settings');
  await expect(page).toHaveURL(/\/login$/);
  // Logging in returns to the remembered location.
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/app\/settings$/);
  // A signed-in verified user visiting /login goes to the dashboard.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/app\/dashboard$/);
});
