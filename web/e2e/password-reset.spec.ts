/**
 * /forgot-password against the real server and the captured mail: the reset code, a wrong code,
 * the new password replacing the old one, the e-mail's prefilled link, client validation and the
 * busy states. Saves screenshots of both steps at 1280 and 375 px wide.
 */
import { expect, test, type Page } from '@playwright/test';
import { uniqueAccount, waitForMail } from './fixtures.ts';
import { registerVerified, saveScreenshot, signInThroughLogin } from './helpers.ts';

const SHOTS = 'test-results/screenshots';
const SENT = 'If an account exists for that email, we sent a reset code. Please check your inbox and spam folder.';
const DONE = 'Your password has been reset. You can sign in now.';
const RESET_SUBJECT = /Reset your Avail password/;

/** The 6-digit code and the /forgot-password link of a reset e-mail. */
function readResetMail(text: string) {
  const code = /reset code is:\s*(\d{6})/i.exec(text)?.[1];
  const link = /https?:\/\/\S+\/forgot-password\?[^\s"<>]+/.exec(text)?.[0];
  if (!code || !link) throw new Error(`No code or link in the reset mail:\n${text}`);
  return { code, link: new URL(link.replace(/&amp;/g, '&')) };
}

/** A request gate: the matching request waits for `release()` before going on to the real server. */
async function holdRequests(page: Page, pattern: string) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  await page.route(pattern, async (route) => {
    await gate;
    await route.continue();
  });
  return { release: () => release() };
}

test('a forgotten password is reset with the e-mailed code; a wrong code is refused; the old password stops working', async ({ page }) => {
  const acct = uniqueAccount('reset');
  const oldPassword = 'old-password-1';
  const newPassword = 'brand-new-pass-2';
  await registerVerified(page, acct, oldPassword);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel('Email').fill(acct.email);
  const since = Date.now();
  await page.getByRole('button', { name: 'Send reset code' }).click();

  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: SENT })).toBeVisible();
  await expect(page.getByText(acct.email)).toBeVisible();
  const { code } = readResetMail((await waitForMail(acct.email, RESET_SUBJECT, { since })).text);

  // A wrong code: the server's message in an error alert, and nothing changes.
  const wrong = code.replace(/\d$/, (d) => String((Number(d) + 1) % 10));
  await page.getByLabel('Reset code').fill(wrong);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid or expired reset code');
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();

  // The right code: the server's success message and a way to sign in.
  await page.getByLabel('Reset code').fill(code);
  await expect(page.getByRole('alert')).toHaveCount(0); // editing clears the error
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('heading', { name: 'Password reset' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: DONE })).toBeVisible();
  await saveScreenshot(page, { path: `${SHOTS}/forgot-password-3-done-1280.png`, fullPage: true });
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The old password fails, the new one signs in.
  await signInThroughLogin(page, acct.email, oldPassword);
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await signInThroughLogin(page, acct.email, newPassword);
  await expect(page).toHaveURL(/\/app\//);
});

test('the link in the reset e-mail opens the reset step prefilled', async ({ page }) => {
  const acct = uniqueAccount('relink');
  await registerVerified(page, acct, 'first-password-1');
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  const since = Date.now();
  const res = await page.request.post('/api/auth/forgot-password', { data: { email: acct.email } });
  expect(res.status()).toBe(200);
  const { code, link } = readResetMail((await waitForMail(acct.email, RESET_SUBJECT, { since })).text);
  expect(link.searchParams.get('email')).toBe(acct.email);
  expect(link.searchParams.get('code')).toBe(code);

  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await expect(page.getByLabel('Reset code')).toHaveValue(code);
  await expect(page.getByText(acct.email)).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toBeFocused();
  await page.getByLabel('New password', { exact: true }).fill('second-password-2');
  await page.getByLabel('Confirm new password').fill('second-password-2');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('status').filter({ hasText: DONE })).toBeVisible();

  await signInThroughLogin(page, acct.email, 'second-password-2');
  await expect(page).toHaveURL(/\/app\//);
});

test('forgot-password: client validation, busy labels, server errors, show/hide, and screenshots of both steps', async ({ page }) => {
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/auth\/(forgot|reset)-password$/.test(r.url())) posts.push(new URL(r.url()).pathname);
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/forgot-password');
  await expect(page).toHaveTitle('Forgot your password? · Avail');
  await expect(page.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  await saveScreenshot(page, { path: `${SHOTS}/forgot-password-1-1280.png`, fullPage: true });

  // Step 1: e-mail required, then a valid pattern; nothing is sent while invalid.
  const email = page.getByLabel('Email');
  await expect(email).toBeFocused();
  await page.getByRole('button', { name: 'Send reset code' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await email.fill('not-an-email');
  await expect(page.getByText('Email is required')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Email is invalid')).toBeVisible();
  expect(posts).toEqual([]);

  // 'Sending...' while the request is under way (held back, then passed on to the real server).
  const address = uniqueAccount('nobody').email;
  await email.fill(address);
  const held = await holdRequests(page, '**/api/auth/forgot-password');
  await page.getByRole('button', { name: 'Send reset code' }).click();
  await expect(page.getByRole('button', { name: 'Sending...' })).toBeDisabled();
  held.release();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: SENT })).toBeVisible();
  await page.unroute('**/api/auth/forgot-password');
  expect(posts).toEqual(['/api/auth/forgot-password']);

  // A second request within 30 s: the server's cooldown message in an error alert.
  await page.getByRole('button', { name: 'Send a new code' }).click();
  await expect(page.getByRole('alert')).toContainText('Please wait 30 seconds before requesting another code.');

  // Step 2: the code's length, the password's length and the match, with the spec's messages.
  await expect(page.getByLabel('Reset code')).toHaveAttribute('placeholder', '000000');
  await expect(page.getByLabel('Reset code')).toHaveAttribute('maxlength', '6');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Please enter the complete 6-digit code')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toHaveCount(0);
  await expect(page.getByLabel('Reset code')).toBeFocused();
  await page.getByLabel('Reset code').fill('12345');
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByLabel('Confirm new password').fill('shorter');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Please enter the complete 6-digit code')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await saveScreenshot(page, { path: `${SHOTS}/forgot-password-2-errors-1280.png`, fullPage: true });
  expect(posts).toEqual(['/api/auth/forgot-password', '/api/auth/forgot-password']);

  // Editing a field clears its error; the code input keeps at most 6 characters.
  await page.getByLabel('New password', { exact: true }).fill('long-enough-1');
  await expect(page.getByText('Password must be at least 8 characters')).toHaveCount(0);
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Reset code').fill('1234567');
  await expect(page.getByLabel('Reset code')).toHaveValue('123456');
  await page.getByLabel('Confirm new password').fill('long-enough-1');

  // Show/hide applies to both password fields.
  await expect(page.getByLabel('New password', { exact: true })).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(page.getByLabel('New password', { exact: true })).toHaveAttribute('type', 'text');
  await expect(page.getByLabel('Confirm new password')).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(page.getByLabel('New password', { exact: true })).toHaveAttribute('type', 'password');
  await saveScreenshot(page, { path: `${SHOTS}/forgot-password-2-1280.png`, fullPage: true });

  // 'Resetting...' while under way; an address without an account gets the invalid-code message.
  const heldReset = await holdRequests(page, '**/api/auth/reset-password');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('button', { name: 'Resetting...' })).toBeDisabled();
  heldReset.release();
  await expect(page.getByRole('alert')).toContainText('Invalid or expired reset code');
  await page.unroute('**/api/auth/reset-password');

  // 'Use a different email' goes back to step 1 with the address kept.
  await page.getByRole('button', { name: 'Use a different email' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(address);

  // 375 px: both steps fit.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/forgot-password');
  await expect(page.getByRole('button', { name: 'Send reset code' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await saveScreenshot(page, { path: `${SHOTS}/forgot-password-1-375.png`, fullPage: true });
  await page.goto(`/forgot-password?email=${encodeURIComponent(address)}&code=123456`);
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await expect(page.getByLabel('Reset code')).toHaveValue('123456');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await saveScreenshot(page, { path: `${SHOTS}/forgot-password-2-375.png`, fullPage: true });

  // A link whose code is not 6 characters opens step 1 with the address filled in.
  await page.goto(`/forgot-password?email=${encodeURIComponent(address)}&code=12`);
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(address);
});
