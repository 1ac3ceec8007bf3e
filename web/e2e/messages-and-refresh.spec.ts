/**
 * QA audit fixes: the spec §8 fallback messages when the server sends no message of its own
 * (M-02, M-06, M-07, M-10, M-12, M-14, M-16), the server's message carried to the verify screen
 * (T-04), 'Username is required' on a cleared username, and the dashboard refetching the
 * week's events after Sync Now in Settings (T-23; with issue 3 from the device database).
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import { SECRET_TITLE, uniqueAccount } from './fixtures.ts';
import { registerVerified } from './helpers.ts';

/** Answers a call with a message-less failure: a 500 with `{}`, or an empty 401. */
const bare500 = (route: Route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' });
const empty401 = (route: Route) => route.fulfill({ status: 401, body: '' });
/** Only one method of a path is failed; the others reach the real server. */
function onMethod(method: string, handler: (route: Route) => Promise<void>) {
  return (route: Route) => (route.request().method() === method ? handler(route) : route.fallback());
}

/** The text of the one error alert, without its icon. */
const errorAlert = (page: Page) => page.getByRole('alert').locator('.alert-body');

async function fillLogin(page: Page, email: string, password = 'password-123') {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('login, register and verify fall back to the spec messages when the server sends none', async ({ page }) => {
  // M-02: a 500 `{}` and an empty 401 are 'Login failed', never the client's generic text.
  await page.goto('/login');
  await page.route('**/api/auth/login', bare500);
  await fillLogin(page, 'nobody.fallback@example.com');
  await expect(errorAlert(page)).toHaveText('Login failed');
  await page.unroute('**/api/auth/login');
  await page.route('**/api/auth/login', empty401);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(errorAlert(page)).toHaveText('Login failed');
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  await page.unroute('**/api/auth/login');

  // M-03: an exception (API unreachable).
  await page.route('**/api/auth/login', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(errorAlert(page)).toHaveText('An unexpected error occurred');
  await page.unroute('**/api/auth/login');

  // M-06: the resend from login fails without a message.
  await page.route('**/api/auth/login', (route) =>
    route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ error: 'Your email is not verified' }) }),
  );
  await page.route('**/api/auth/resend-verification', bare500);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Your email is not verified')).toBeVisible();
  await page.getByRole('button', { name: 'Resend verification email' }).click();
  await expect(page.getByText('Failed to resend verification email')).toBeVisible();
  await page.unroute('**/api/auth/login');
  await page.unroute('**/api/auth/resend-verification');

  // M-07: registration.
  await page.goto('/register');
  await page.route('**/api/auth/register', bare500);
  await page.getByLabel('Full name').fill('Fallback Tester');
  await page.getByLabel('Email').fill('fallback.register@example.com');
  await page.getByLabel('Password', { exact: true }).fill('password-123');
  await page.getByLabel('Confirm password').fill('password-123');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(errorAlert(page)).toHaveText('Registration failed');
  await page.unroute('**/api/auth/register');

  // M-10, M-11, M-12: the verify screen.
  await page.goto('/verify-email?email=fallback.verify%40example.com&code=123456');
  await page.route('**/api/auth/verify-email', bare500);
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await expect(errorAlert(page)).toHaveText('Invalid verification code');
  await page.unroute('**/api/auth/verify-email');
  await page.route('**/api/auth/verify-email', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await expect(errorAlert(page)).toHaveText('Failed to verify code. Please try again.');
  await page.unroute('**/api/auth/verify-email');
  await page.route('**/api/auth/resend-verification', empty401);
  await page.getByRole('button', { name: 'Resend verification code' }).click();
  await expect(errorAlert(page)).toHaveText('Failed to resend verification code');
});

test('a login or registration that needs verification shows the server message on the verify screen (T-04)', async ({ page }) => {
  const acct = uniqueAccount('note');
  await page.goto('/register');
  await page.getByLabel('Full name').fill('Notice Tester');
  await page.getByLabel('Email').fill(acct.email);
  await page.getByLabel('Password', { exact: true }).fill('password-123');
  await page.getByLabel('Confirm password').fill('password-123');
  const registered = page.waitForResponse((r) => r.url().endsWith('/api/auth/register'));
  await page.getByRole('button', { name: 'Create account' }).click();
  const regBody = (await (await registered).json()) as { requires_verification: boolean; message: string };
  expect(regBody.requires_verification).toBe(true);
  expect(regBody.message.length).toBeGreaterThan(0);
  await expect(page).toHaveURL(new RegExp(`/verify-email\\?email=${encodeURIComponent(acct.email)}$`));
  await expect(page.getByRole('status').filter({ hasText: regBody.message })).toBeVisible();

  await page.goto('/login');
  await fillLogin(page, acct.email);
  await expect(page).toHaveURL(new RegExp(`/verify-email\\?email=${encodeURIComponent(acct.email)}$`));
  await expect(page.getByRole('status').filter({ hasText: 'Please verify your email before logging in.' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  // A direct visit carries no message. (From another page: Chromium may turn a navigation to the
  // very URL already shown into a reload, which keeps the history entry's state and its message.)
  await page.goto('/login');
  await page.goto(`/verify-email?email=${encodeURIComponent(acct.email)}`);
  await expect(page.getByText('Please verify your email before logging in.')).toHaveCount(0);
});

/** Registers a verified user and saves onboarding steps 2–3; ends on step 4 (username). */
async function toUsernameStep(page: Page, acct: { name: string; email: string }) {
  await registerVerified(page, acct);
  await page.getByRole('button', { name: 'Get Started' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Set your weekly schedule' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Choose your username' })).toBeVisible();
}

test('onboarding and links fall back to the spec messages on save and check failures', async ({ page }) => {
  const acct = uniqueAccount('fbk');
  await registerVerified(page, acct);

  // Onboarding step 3 → M-14.
  await page.getByRole('button', { name: 'Get Started' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Set your weekly schedule' })).toBeVisible();
  await page.route('**/api/me/profile', onMethod('PUT', bare500));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(errorAlert(page)).toHaveText('Failed to save your availability settings. Please try again.');
  await page.unroute('**/api/me/profile');
  await page.getByRole('button', { name: 'Continue' }).click();

  // Step 4: M-15.
  await expect(page.getByRole('heading', { name: 'Choose your username' })).toBeVisible();
  await page.route('**/api/me/profile/check-username', bare500);
  await page.getByLabel('Username').fill(acct.username);
  await expect(page.getByText('Failed to check username availability')).toBeVisible();
  await page.unroute('**/api/me/profile/check-username');

  // /app/links while no username is set (a set one cannot change for 14 days): M-16.
  await page.goto('/app/links');
  await page.getByLabel('Username').fill(acct.username);
  await expect(page.getByText('Username is available')).toBeVisible();
  await page.route('**/api/me/profile/username', onMethod('PUT', bare500));
  await page.getByRole('button', { name: 'Save username' }).click();
  await expect(errorAlert(page)).toHaveText('Failed to save username. Please try again.');
  await page.unroute('**/api/me/profile/username');

  // Back to onboarding step 4: M-16, then finish.
  await page.goto('/app/onboarding');
  await page.getByRole('button', { name: 'Get Started' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Choose your username' })).toBeVisible();
  await page.getByLabel('Username').fill(acct.username);
  await expect(page.getByText('Username is available')).toBeVisible();
  await page.route('**/api/me/profile/username', onMethod('PUT', bare500));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(errorAlert(page)).toHaveText('Failed to save username. Please try again.');
  await page.unroute('**/api/me/profile/username');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: "You're All Set" })).toBeVisible();
});

test("a cleared username shows 'Username is required' in onboarding and on /app/links (X-15)", async ({ page }) => {
  await toUsernameStep(page, uniqueAccount('req'));
  const username = page.getByLabel('Username');
  // An untouched empty field says nothing yet.
  await expect(page.getByText('Username is required')).toHaveCount(0);
  await username.fill('abcd');
  await username.fill('');
  await expect(page.locator('#username-status')).toHaveText('Username is required');
  await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();

  await page.goto('/app/links');
  const linksName = page.getByLabel('Username');
  await expect(linksName).toBeEnabled();
  await expect(page.getByText('Username is required')).toHaveCount(0);
  await linksName.fill('abcd');
  await linksName.fill('');
  await expect(page.locator('#links-username-status')).toHaveText('Username is required');
  await expect(page.getByRole('button', { name: 'Save username' })).toBeDisabled();
});

test('after Sync Now in Settings, returning to the dashboard shows the synced week (T-23)', async ({ page }) => {
  // Issue 3: the week's events come from the device database, which replicates live; the
  // sync-completed event (like the 2-minute tick and tab focus) asks it to re-sync at once.
  await toUsernameStep(page, uniqueAccount('sync'));
  const eventPulls: number[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === '/api/replication/calendar_events/pull') eventPulls.push(Date.now());
  });
  await page.goto('/app/dashboard');
  await expect(page.getByTestId('sync-status')).toHaveText('Online', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Next week' }).click();
  await expect(page.getByRole('heading', { name: 'Your week' })).toBeVisible();
  await expect(page.locator('.cal-event', { hasText: SECRET_TITLE })).toHaveCount(0);

  await page.getByRole('button', { name: 'Settings' }).click();
  await page.locator('.provider-card', { hasText: 'ICS feed URL' }).getByRole('button', { name: 'Connect' }).click();
  await page.getByLabel('Calendar feed URL').fill(process.env.E2E_ICS_URL!);
  await page.getByRole('button', { name: 'Connect feed' }).click();
  await expect(page.getByTestId('connection-row').getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });
  const syncStartedAt = Date.now();
  await page.getByRole('button', { name: 'Sync Now' }).click();
  await expect(page.getByRole('button', { name: /Sync Complete/ })).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => eventPulls.filter((t) => t >= syncStartedAt).length).toBeGreaterThan(0);
  await page.getByRole('link', { name: 'Back to dashboard' }).click();
  await page.getByRole('button', { name: 'Next week' }).click();
  await expect(page.locator('.cal-event', { hasText: SECRET_TITLE })).toBeVisible();
});
