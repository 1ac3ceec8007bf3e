/**
 * Issue 14 item 8: the alerts on /login and /verify-email close by themselves like every other
 * alert (spec §4: errors after 10 s).
 */
import { expect, test } from '@playwright/test';
import { uniqueAccount } from './fixtures.ts';

test('a sign-in error and a wrong-code error close after 10 seconds', async ({ page }) => {
  const acct = uniqueAccount('alert');
  await page.goto('/login');
  await page.getByLabel('Email').fill(acct.email);
  await page.getByLabel('Password', { exact: true }).fill('wrong-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const loginError = page.getByRole('alert');
  await expect(loginError).toBeVisible();
  await page.waitForTimeout(8_000);
  await expect(loginError).toBeVisible(); // still there before its time
  await expect(loginError).toHaveCount(0, { timeout: 4_000 });

  await page.goto(`/verify-email?email=${encodeURIComponent(acct.email)}`);
  await page.getByLabel('Verification code').fill('000000');
  await page.getByRole('button', { name: 'Verify Email' }).click();
  const codeError = page.getByRole('alert');
  await expect(codeError).toBeVisible();
  await expect(codeError).toHaveCount(0, { timeout: 12_000 });
});
