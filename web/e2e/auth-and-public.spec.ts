/** Login and register validation/errors, the verify screen's rules, routes, and the public page's error states. */
import { expect, test } from '@playwright/test';
import { uniqueAccount, waitForVerificationCode } from './fixtures.ts';

test('register validates on the client with the spec messages and sends nothing while invalid', async ({ page }) => {
  const posts: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && r.url().includes('/api/auth/register') && posts.push(r.url()));
  await page.goto('/register');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create account' })).toBeDisabled();
  // Editing a field clears that field's error only.
  await page.getByLabel('Full name').fill('Reg Tester');
  await expect(page.getByText('Name is required')).toHaveCount(0);
  await expect(page.getByText('Email is required')).toBeVisible();
  await page.getByLabel('Email').fill('abc');
  await page.getByLabel('Password', { exact: true }).fill('1234567');
  await page.getByLabel('Confirm password').fill('different');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Email is invalid')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  expect(posts).toHaveLength(0);
});

test('unverified login goes to verify; registering a verified e-mail again shows the server message', async ({ page }) => {
  const acct = uniqueAccount('dup');
  const fillRegister = async () => {
    await page.goto('/register');
    await page.getByLabel('Full name').fill('Dup Tester');
    await page.getByLabel('Email').fill(acct.email);
    await page.getByLabel('Password', { exact: true }).fill('password-123');
    await page.getByLabel('Confirm password').fill('password-123');
    await page.getByRole('button', { name: 'Create account' }).click();
  };
  await fillRegister();
  await expect(page).toHaveURL(/\/verify-email\?email=/);

  // Login before verifying → the verify screen with the e-mail; no token is stored.
  await page.goto('/login');
  await page.getByLabel('Email').fill(acct.email);
  await page.getByLabel('Password', { exact: true }).fill('password-123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/verify-email\\?email=${encodeURIComponent(acct.email)}`));
  expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();

  // Verify with the mailed code, then sign out by dropping the token.
  const code = await waitForVerificationCode(acct.email);
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await expect(page).toHaveURL(/\/app\/onboarding$/, { timeout: 10_000 });
  expect(await page.evaluate(() => localStorage.getItem('auth_token'))).not.toBeNull();
  await page.evaluate(() => localStorage.removeItem('auth_token'));

  await fillRegister();
  await expect(page.getByText('Email is already registered')).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
});

test('login shows the server error, the resend button when it mentions e-mail, and the show/hide toggle', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
  await expect(page.getByRole('link', { name: 'Create one' })).toHaveAttribute('href', '/register');
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('wrong-password');
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(password).toHaveAttribute('type', 'password');

  // Empty e-mail: nothing is sent.
  const posts: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && r.url().includes('/api/auth/login') && posts.push(r.url()));
  await page.getByRole('button', { name: 'Sign in' }).click();
  expect(posts).toHaveLength(0);

  await page.getByLabel('Email').fill('nobody.here@example.com');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const alert = page.getByRole('alert').first();
  await expect(alert).toBeVisible();
  const text = (await alert.textContent()) ?? '';
  expect(text.length).toBeGreaterThan(0);
  const resend = page.getByRole('button', { name: 'Resend verification email' });
  if (/verify|email/i.test(text)) {
    await expect(resend).toBeVisible();
    await page.getByLabel('Email').fill('');
    await resend.click();
    await expect(page.getByText('Please enter your email address first')).toBeVisible();
  } else {
    await expect(resend).toHaveCount(0);
  }
});

test('verify screen: code rules, prefill from the URL, resend without e-mail, support link', async ({ page }) => {
  await page.goto('/verify-email');
  const input = page.getByLabel('Verification code');
  await input.fill('12345');
  await expect(page.getByRole('button', { name: 'Verify Email' })).toBeDisabled();
  await input.press('Enter');
  await expect(page.getByText('Please enter the complete 6-digit code')).toBeVisible();
  await input.fill('1234567');
  await expect(input).toHaveValue('123456');
  await page.getByRole('button', { name: 'Resend verification code' }).click();
  await expect(page.getByText('Email address is required to resend code')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/support');

  await page.goto('/verify-email?email=someone%40example.com&code=654321');
  await expect(page.getByLabel('Verification code')).toHaveValue('654321');
  await expect(page.getByRole('button', { name: 'Verify Email' })).toBeEnabled();
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
});

test('routes: guards, aliases, landing, legal pages and a real 404', async ({ page }) => {
  await page.goto('/app/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/app/');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/app/onboarding');
  await expect(page).toHaveURL(/\/login$/);

  await page.goto('/');
  await expect(page.getByText('Now in Beta')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get started free' }).first()).toHaveAttribute('href', '/register');
  await expect(page.getByText(/CalDAV/).first()).toBeVisible();
  await page.goto('/privacypolicy');
  await expect(page.getByRole('heading', { name: 'Privacy Policy' })).toBeVisible();
  await page.goto('/termsofservice');
  await expect(page.getByText(/Belgium/)).toBeVisible();
  await page.goto('/forgot-password');
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.goto('/support');
  await expect(page.getByRole('heading', { name: 'Support' })).toBeVisible();

  // Reserved names are never users; deeper unknown paths are a 404 page.
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.goto('/some/unknown/path');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test("guard rule 1 with no stored token: the session starts loading ('Loading...'), then settles signed out on /login", async ({ page }) => {
  // Record every text the app root shows from its first render on, before the page's own scripts run.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __seen: string[] }).__seen = seen;
    new MutationObserver(() => {
      const t = document.getElementById('root')?.textContent ?? '';
      if (t && seen[seen.length - 1] !== t) seen.push(t);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto('/app/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('Email')).toBeVisible();
  const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
  expect(seen.some((t) => t.includes('Loading...'))).toBe(true);
  expect(seen[seen.length - 1]).not.toContain('Loading...');
  expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
});

test('public page: unknown link is not_found, on both readings of the route', async ({ page }) => {
  await page.goto('/nobody-here-42');
  await expect(page.getByText('This availability link could not be found.')).toBeVisible();
  await page.goto('/u/nobody-here-42');
  await expect(page.getByText('This availability link could not be found.')).toBeVisible();
});

test('public page: an unreachable API is the network_error state', async ({ page }) => {
  await page.route('**/api/public/**', (route) => route.abort('internetdisconnected'));
  await page.goto('/someone-offline');
  await expect(page.getByText('Unable to connect. Please check your internet connection and try again.')).toBeVisible();
});
