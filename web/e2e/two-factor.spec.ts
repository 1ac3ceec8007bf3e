/**
 * Issue 26: two-step verification (TOTP, RFC 6238) as an owner meets it, against the real server.
 *
 * In the browser: Settings → Privacy & Security turns it on — the QR code shows (as an image, under
 * the page's CSP), the key is read off the page and this spec's own authenticator (totp.ts) makes
 * the codes; a wrong code is refused, the right one turns it on and shows 10 recovery codes once
 * (copied, downloaded as .txt). Signing in then asks for a code on a second step: a wrong code
 * shows the server's message under the field, the right one opens the dashboard; a recovery code
 * signs in once and is refused the second time. Deleting the account asks for a code too; turning
 * it off needs the password and a code, after which sign-in and deletion ask only for the password.
 * In the desktop renderer (the web build with the recording bridge): the code step works there and
 * the token reaches the bridge only after the right code. Too many wrong codes: the throttle's
 * message. Changing the password with it on asks for the code too: refused without it or with a
 * wrong one (said under the field), accepted with the right one. The login's code step and the section's states are checked with axe and looked at
 * (screenshots in test-results/screenshots/two-factor-*.png) at 375 and 1280 px, light and dark.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { uniqueAccount } from './fixtures.ts';
import { axeViolations, onboardedOwner, registerVerified, saveScreenshot, signInThroughLogin } from './helpers.ts';
import { callsOf, installRecordingBridge } from './recording-bridge.ts';
import { freshTotp, totp, TOTP_STEP_S } from './totp.ts';

const PASSWORD = 'password-123';
const serverUrl = () => process.env.E2E_BASE_URL!;
const desktopUrl = () => process.env.E2E_DESKTOP_URL!;
/** The Settings section under test (two-factor-section.tsx). */
const TWO_FACTOR_SECTION = 'section.two-factor';

/** A 6-digit code no authenticator shows now (the current code with its last digit changed). */
function wrongCode(secret: string): string {
  const right = totp(secret);
  const near = new Set([totp(secret, Date.now() - TOTP_STEP_S * 1000), right, totp(secret, Date.now() + TOTP_STEP_S * 1000)]);
  for (let d = 1; d < 10; d++) {
    const candidate = right.slice(0, 5) + String((Number(right[5]) + d) % 10);
    if (!near.has(candidate)) return candidate;
  }
  throw new Error('no wrong code found');
}

/**
 * The current screen at 1280 and 375 px, light and dark: no axe violation (in `part` when given: the
 * Settings page's other sections are accessibility.spec.ts's), nothing wider than a phone, a
 * screenshot to look at (of `part`, else the full page); ends at 1280 px, light.
 */
async function lookAt(page: Page, name: string, part?: Locator) {
  for (const [w, h] of [[1280, 800], [375, 812]] as const) {
    await page.setViewportSize({ width: w, height: h });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(350); // colour transitions settle
      const where = `${name} at ${w} px, ${scheme}`;
      expect.soft(await axeViolations(page, part ? { include: TWO_FACTOR_SECTION } : {}), where).toEqual([]);
      if (w === 375) expect.soft(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${where}: overflows`).toBeLessThanOrEqual(0);
      const path = `test-results/screenshots/two-factor-${name}-${w}-${scheme}.png`;
      if (part) await saveScreenshot(part, { path });
      else await saveScreenshot(page, { path, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Turns two-step verification on through the API for the owner of `token`; returns the secret. */
async function enableByApi(request: APIRequestContext, token: string, used: Set<number>): Promise<string> {
  const headers = { Authorization: `Bearer ${token}` };
  const setup = await request.post('/api/me/two-factor/setup', { headers, data: { password: PASSWORD } });
  expect(setup.status()).toBe(200);
  const { secret } = (await setup.json()) as { secret: string };
  const enabled = await request.post('/api/me/two-factor/enable', { headers, data: { code: await freshTotp(secret, used) } });
  expect(enabled.status()).toBe(200);
  return secret;
}

test('two-step verification: turned on in Settings, asked at sign-in (code and recovery code), asked by the account deletion, turned off', async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  const acct = uniqueAccount('tfa');
  const used = new Set<number>();
  await onboardedOwner(page, acct);
  await page.goto('/app/settings');
  const section = page.getByRole('region', { name: /Two-step verification/ });
  await expect(section.getByRole('heading', { level: 3 })).toHaveText(/^Two-step verification\s*Off$/);
  await lookAt(page, 'settings-off', section);

  // Turn on: the password first (a stolen session alone cannot turn it on); a wrong one is said under the field.
  await section.getByRole('button', { name: 'Turn on two-step verification' }).click();
  const confirm = section.getByLabel('Confirm your password to continue');
  await confirm.fill('not the password');
  await section.getByRole('button', { name: 'Continue' }).click();
  await expect(section.getByText('The password is incorrect.')).toBeVisible();
  await lookAt(page, 'settings-confirm-password', section);
  await confirm.fill(PASSWORD);
  await section.getByRole('button', { name: 'Continue' }).click();
  // The QR code is an image that loads under the CSP; the key is on the page.
  const qr = section.getByRole('img', { name: 'QR code for your authenticator app' });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const secret = (await section.getByTestId('two-factor-secret').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await lookAt(page, 'settings-setup', section);

  const setupCode = section.getByLabel('Enter the 6-digit code the app shows');
  await setupCode.fill(wrongCode(secret));
  await section.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(section.getByRole('alert')).toHaveText('The code is incorrect.');
  await setupCode.fill(await freshTotp(secret, used));
  await section.getByRole('button', { name: 'Turn on', exact: true }).click();

  // The recovery codes, once: ten of them, copied and downloaded.
  const codeList = section.getByRole('list', { name: 'Save your recovery codes' });
  await expect(codeList.getByRole('listitem')).toHaveCount(10);
  const codes = (await codeList.getByRole('listitem').allInnerTexts()).map((c) => c.trim());
  for (const c of codes) expect(c).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/i);
  expect(new Set(codes).size).toBe(10);
  const downloading = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Download (.txt)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('avail-recovery-codes.txt');
  const file = readFileSync(await download.path(), 'utf8');
  expect(file).toContain(`Account: ${acct.email}`);
  for (const c of codes) expect(file).toContain(c);
  await section.getByRole('button', { name: 'Copy codes' }).click();
  await expect(section.getByRole('button', { name: 'Copied!' })).toBeVisible();
  await lookAt(page, 'settings-recovery-codes', section);
  await section.getByRole('button', { name: 'I saved them' }).click();
  await expect(codeList).toHaveCount(0);
  await expect(section.getByRole('heading', { level: 3 })).toHaveText(/^Two-step verification\s*On$/);
  await expect(section.getByRole('button', { name: 'Turn off' })).toBeVisible();
  await lookAt(page, 'settings-on', section);

  // Sign in: the password alone is not enough; the code step shows on the same page.
  await page.goto('/app/dashboard'); // (signing in again returns to the screen that was open)
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signInThroughLogin(page, acct.email);
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  const codeField = page.getByLabel('Authentication code');
  await expect(codeField).toBeFocused();
  await expect(codeField).toHaveAttribute('inputmode', 'numeric');
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(PASSWORD); // the password stays in memory only
  await lookAt(page, 'login-code-step');
  // A wrong code: the server's message under the field (sent by itself at six digits).
  await codeField.fill(wrongCode(secret));
  await expect(page.locator('#two-factor-code-error')).toHaveText('The code is incorrect.');
  await expect(page).toHaveURL(/\/login$/);
  await lookAt(page, 'login-code-wrong');
  // The right code of a new time step (the one that turned it on is not accepted twice).
  await codeField.fill(await freshTotp(secret, used));
  await expect(page).toHaveURL(/\/app\/dashboard$/);

  // Back on the first step, "Back" forgets the password.
  await page.getByRole('button', { name: 'Log out' }).click();
  await signInThroughLogin(page, acct.email);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Email')).toHaveValue(acct.email);

  // A recovery code signs in once.
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  const recoveryField = page.getByLabel('Recovery code');
  await expect(recoveryField).toBeFocused();
  await lookAt(page, 'login-recovery-step');
  await recoveryField.fill(codes[0].toUpperCase().replace('-', ' ')); // as someone might type it off paper
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await page.getByRole('button', { name: 'Log out' }).click();
  await signInThroughLogin(page, acct.email);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.locator('#two-factor-recovery-error')).toHaveText('The code is incorrect.');
  await page.getByLabel('Recovery code').fill(codes[1]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);

  // Deleting the account asks for a code; a wrong one deletes nothing.
  await page.goto('/app/settings');
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await dialog.getByLabel('Password').fill(PASSWORD);
  await dialog.getByLabel(/Type .* to confirm/).fill(acct.username);
  const deleteCode = dialog.getByLabel('Code from your authenticator app, or a recovery code');
  await expect(dialog.getByRole('button', { name: 'Delete my account' })).toBeDisabled();
  await deleteCode.fill(wrongCode(secret));
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.locator('#delete-two-factor-code-error')).toHaveText('The code is incorrect.');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // Turn off: the password and a code (a recovery code here); a wrong password is named.
  await section.getByRole('button', { name: 'Turn off' }).click();
  await section.getByLabel('Password').fill('not-my-password');
  await section.getByLabel('Code from your authenticator app, or a recovery code').fill(codes[2]);
  await lookAt(page, 'settings-turn-off', section);
  await section.getByRole('button', { name: 'Turn off two-step verification' }).click();
  await expect(section.locator('#two-factor-off-password-error')).not.toBeEmpty();
  await section.getByLabel('Password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Turn off two-step verification' }).click();
  await expect(section.getByRole('status')).toContainText('Two-step verification is off.');
  await expect(section.getByRole('button', { name: 'Turn on two-step verification' })).toBeVisible();

  // Off: the password alone signs in, and the deletion asks for no code.
  await page.getByRole('button', { name: 'Log out' }).click();
  await signInThroughLogin(page, acct.email);
  await expect(page).toHaveURL(/\/app\/settings$/); // back on the screen that was open
  await page.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog.getByLabel('Code from your authenticator app, or a recovery code')).toHaveCount(0);
  await dialog.getByLabel('Password').fill(PASSWORD);
  await dialog.getByLabel(/Type .* to confirm/).fill(acct.username);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
});

test('desktop mode: the code step in the desktop renderer; the token reaches the bridge only after the right code', async ({ browser }) => {
  test.setTimeout(150_000);
  const acct = uniqueAccount('tfad');
  const used = new Set<number>();
  const web = await browser.newContext({ locale: 'en-GB', baseURL: serverUrl() });
  const webPage = await web.newPage();
  await registerVerified(webPage, acct);
  const webToken = (await webPage.evaluate(() => localStorage.getItem('auth_token')))!;
  const secret = await enableByApi(webPage.request, webToken, used);
  await web.close();

  const desk = await browser.newContext({ locale: 'en-GB', baseURL: desktopUrl(), serviceWorkers: 'block' });
  const page = await desk.newPage();
  await installRecordingBridge(page, { origin: serverUrl(), confirmed: true });
  await signInThroughLogin(page, acct.email);
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  const codeField = page.getByLabel('Authentication code');
  await codeField.fill(wrongCode(secret));
  await expect(page.locator('#two-factor-code-error')).toHaveText('The code is incorrect.');
  expect(await callsOf(page, 'saveToken')).toEqual([]);
  await codeField.fill(await freshTotp(secret, used));
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  expect((await callsOf(page, 'saveToken')).length).toBe(1);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k === 'auth_token'))).toEqual([]);
  await desk.close();
});

test('too many wrong codes: the sign-in is throttled and says so', async ({ page }) => {
  test.setTimeout(120_000);
  const acct = uniqueAccount('tfat');
  const used = new Set<number>();
  await registerVerified(page, acct);
  const token = (await page.evaluate(() => localStorage.getItem('auth_token')))!;
  const secret = await enableByApi(page.request, token, used);
  await page.evaluate(() => localStorage.clear()); // signed out on this page (the session stays on the server)
  await signInThroughLogin(page, acct.email);
  const codeField = page.getByLabel('Authentication code');
  const error = page.locator('#two-factor-code-error');
  // 5 wrong codes are free (docs/account-security.md); the next attempt is throttled.
  for (let i = 0; i < 6; i++) {
    const code = String(100000 + i * 111_111 + (i % 2)).slice(0, 6);
    await codeField.fill(code === totp(secret) ? wrongCode(secret) : code);
    await expect(error).not.toBeEmpty();
    if ((await error.innerText()).startsWith('Too many')) break;
  }
  await expect(error).toHaveText('Too many login attempts. Please try again later.');
  await expect(page).toHaveURL(/\/login$/);
});

test('password change with two-step verification on: refused without the code (said under the field), accepted with it', async ({ page }) => {
  test.setTimeout(150_000);
  const acct = uniqueAccount('tfpw');
  const used = new Set<number>();
  await registerVerified(page, acct);
  const token = (await page.evaluate(() => localStorage.getItem('auth_token')))!;
  const secret = await enableByApi(page.request, token, used);
  const headers = { Authorization: `Bearer ${token}` };
  const NEW_PASSWORD = 'a brand new secret';

  // The server refuses a stolen session plus the password alone.
  const bare = await page.request.put('/api/me/password', { headers, data: { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
  expect(bare.status()).toBe(422);
  expect(await bare.json()).toMatchObject({ code: 'two_factor_required', errors: { two_factor_code: 'Enter the 6-digit code from your authenticator app.' } });

  await page.goto('/app/settings');
  const form = page.getByRole('group', { name: 'Change password' });
  await form.getByLabel('Current password').fill(PASSWORD);
  await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  const codeField = form.getByLabel('Authentication code');
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  const submit = form.getByRole('button', { name: 'Change password' });
  // Without the code: the message under the field, tied to it.
  await submit.click();
  const codeError = form.locator('#password-two-factor-code-error');
  await expect(codeError).toHaveText('Enter the 6-digit code from your authenticator app.');
  await expect(codeField).toHaveAttribute('aria-describedby', 'password-two-factor-code-error');
  await expect(codeField).toBeFocused();
  // A wrong code: the server's answer under the field; the password is unchanged.
  await codeField.fill(wrongCode(secret));
  await submit.click();
  await expect(codeError).toHaveText('The code is incorrect.');
  await expect(form.getByRole('status')).toHaveText('');
  await form.scrollIntoViewIfNeeded();
  await lookAt(page, 'password-code-wrong');
  // The right code (of a step not used before): changed.
  await codeField.fill(await freshTotp(secret, used));
  await submit.click();
  await expect(form.getByRole('status')).toHaveText('Your password has been changed. Other devices were signed out.');
  await expect(codeError).toHaveCount(0);
  // The new password is the one that passes the first sign-in step now.
  const withNew = await page.request.post('/api/auth/login', { data: { email: acct.email, password: NEW_PASSWORD } });
  expect(withNew.status()).toBe(401);
  expect((await withNew.json()).code).toBe('two_factor_required');
  const withOld = await page.request.post('/api/auth/login', { data: { email: acct.email, password: PASSWORD } });
  expect((await withOld.json()).code).not.toBe('two_factor_required');
});
