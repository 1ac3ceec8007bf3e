/**
 * Issue 12 (4): an owner deletes their account from Settings — typed confirmation, a wrong
 * password shown in the dialog with nothing lost, then the real deletion: home page with a notice, the old
 * credentials refused, the public link answers the not-found page.
 */
import { expect, test } from '@playwright/test';
import { uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

test('delete account: typed confirmation, wrong password kept safe, then everything gone', async ({ page, browser, baseURL }) => {
  const acct = uniqueAccount('gone');
  await onboardedOwner(page, acct);
  await page.goto('/app/settings');
  const privacy = page.getByRole('region', { name: 'Privacy & Security' });
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  // Escape closes it (radix: focus moves into the dialog and is trapped there while open).
  await privacy.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await privacy.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog).toBeVisible();
  const confirm = dialog.getByRole('button', { name: 'Delete my account' });
  await dialog.getByLabel('Password').fill('wrong-password');
  await expect(confirm).toBeDisabled(); // the username is not typed yet
  await dialog.getByLabel(/Type .* to confirm/).fill(acct.username.slice(0, -1));
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type .* to confirm/).fill(acct.username);
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(dialog.getByRole('alert')).toHaveText('The password is incorrect.');
  await expect(page).toHaveURL(/\/app\/settings$/);

  // Still there: a visitor sees the page.
  const visitor = await browser.newContext({ locale: 'en-GB', baseURL });
  const pub = await visitor.newPage();
  await pub.goto(`/${acct.username}`);
  await expect(pub.getByRole('heading', { name: `${acct.name}'s Availability` })).toBeVisible();

  await dialog.getByLabel('Password').fill('password-123');
  await confirm.click();
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByRole('status').filter({ hasText: 'Your account has been deleted.' })).toBeVisible();

  // The link is gone at once; the old credentials are refused.
  await pub.goto(`/${acct.username}`);
  await expect(pub.getByRole('heading', { name: `${acct.name}'s Availability` })).toHaveCount(0);
  await expect(pub.getByText(/could not be found/i).first()).toBeVisible();
  await visitor.close();
  await page.goto('/login');
  await page.getByLabel('Email').fill(acct.email);
  await page.getByLabel('Password', { exact: true }).fill('password-123');
  await page.getByRole('button', { name: /log in|sign in/i }).click();
  await expect(page.getByText('Invalid email or password')).toBeVisible();
});
