/** Page-level helpers shared by the specs. */
import { expect, type Page } from '@playwright/test';
import { waitForVerificationCode } from './fixtures.ts';

/** Registers through the UI and verifies with the mailed code; ends on /app/onboarding, signed in. */
export async function registerVerified(page: Page, acct: { name: string; email: string }, password = 'password-123') {
  await page.goto('/register');
  await page.getByLabel('Full name').fill(acct.name);
  await page.getByLabel('Email').fill(acct.email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/verify-email\?email=/);
  const code = await waitForVerificationCode(acct.email);
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await expect(page).toHaveURL(/\/app\/onboarding$/, { timeout: 10_000 });
}

/** Registers, verifies and onboards with the default Monday 09:00–17:00 schedule; ends on the dashboard. */
export async function onboardedOwner(page: Page, acct: { name: string; email: string; username: string }) {
  await registerVerified(page, acct);
  await page.getByRole('button', { name: 'Get Started' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Set your weekly schedule' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Username').fill(acct.username);
  await expect(page.getByText('Username is available')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Go to Dashboard' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
}
