/**
 * Issue 26 (web and desktop): Settings → Privacy & Security against the real server — the owner's
 * signed-in devices (two browser contexts as two devices, labelled from their User-Agent), signing
 * one out and every other one out, a password change that signs the other devices out, an e-mail
 * change through the code mailed to the new address, an expired session, and the desktop renderer
 * (recording bridge) whose token is removed through the bridge when its session is ended elsewhere.
 * Each signed-out device lands on the login page with the notice; the texts are the contract's
 * (docs/account-security.md), verbatim English. Screenshots of the section at 1280 and 375 px, light
 * and dark, with the owner's dates in en-GB and de-DE, go to test-results/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { OWNER_ZONE, uniqueAccount, waitForMail, waitForVerificationCode } from './fixtures.ts';
import { axeViolations, onboardedOwner, saveScreenshot, signInThroughLogin } from './helpers.ts';
import { callsOf, installRecordingBridge } from './recording-bridge.ts';

const PASSWORD = 'password-123';
const SIGNED_OUT = 'You were signed out. Please sign in again.';
const EXPIRED = 'Your session has expired. Please sign in again.';
/** Two devices' User-Agents and the labels the server derives from them (docs/account-security.md). */
const MAC_CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const DESKTOP_APP = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Avail/1.0.0 Chrome/130.0.6723.191 Electron/33.3.1 Safari/537.36';

const serverUrl = () => process.env.E2E_BASE_URL!;

async function device(browser: Browser, userAgent: string, opts: { baseURL?: string; locale?: string } = {}): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ baseURL: opts.baseURL ?? serverUrl(), locale: opts.locale ?? 'en-GB', timezoneId: OWNER_ZONE, userAgent, serviceWorkers: 'block' });
  return { ctx, page: await ctx.newPage() };
}

/**
 * Signs in through the login page; ends on the dashboard — or back on Settings, where a device that
 * was signed out there returns (the login page remembers the screen it was sent from).
 */
async function signIn(page: Page, email: string, password = PASSWORD) {
  await signInThroughLogin(page, email, password);
  await expect(page).toHaveURL(/\/app\/(dashboard|settings)$/);
}

function privacy(page: Page) {
  return page.getByRole('region', { name: 'Privacy & Security' });
}

/** Opens Settings the way an owner does (the header's button: no reload), and waits for the device list. */
async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/app\/settings$/);
  await expect(privacy(page).getByTestId('session-row').first()).toBeVisible();
}

/**
 * The owner's next action on a device whose session ended — opening Settings without a reload (from
 * the dashboard; on Settings already: back to the dashboard first) — lands on the login page with
 * `notice`. The device's replication may have met the 401 first and be on the login page already.
 */
async function nextAction(page: Page) {
  const step = async (f: () => Promise<void>) => {
    if (!/\/login$/.test(page.url())) await f().catch(() => undefined);
  };
  if (/\/app\/settings$/.test(page.url())) await step(() => page.getByRole('link', { name: 'Back to dashboard' }).click({ timeout: 5_000 }));
  await step(() => page.getByRole('button', { name: 'Settings' }).click({ timeout: 5_000 }));
}
async function expectSignedOut(page: Page, notice: string) {
  await nextAction(page);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('alert').filter({ hasText: notice })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
}

test('signed-in devices: both listed with labels and "This device"; Sign out of one, then everywhere else', async ({ browser }) => {
  test.setTimeout(120_000);
  const acct = uniqueAccount('sess');
  const a = await device(browser, MAC_CHROME);
  await onboardedOwner(a.page, acct);
  const b = await device(browser, WINDOWS_FIREFOX);
  await signIn(b.page, acct.email);

  await openSettings(a.page);
  const rows = privacy(a.page).getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Chrome on macOS');
  await expect(rows.nth(0).getByText('This device', { exact: true })).toBeVisible();
  const today = new Intl.DateTimeFormat('en-GB', { timeZone: OWNER_ZONE, day: 'numeric', month: 'short', year: 'numeric' }).format(new Date());
  await expect(rows.nth(0)).toContainText(`Signed in ${today}`);
  await expect(rows.nth(1)).toContainText('Firefox on Windows');
  await expect(rows.nth(1)).toContainText(/Last active (just now|\d+ minutes? ago)/);
  await expect(rows.nth(1).getByText('This device', { exact: true })).toHaveCount(0);

  // Sign out of the other device: gone from the list; that device's next action lands on login.
  await rows.nth(1).getByRole('button', { name: 'Sign out' }).click();
  await expect(privacy(a.page).getByRole('status').filter({ hasText: 'Signed out: Firefox on Windows.' })).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expectSignedOut(b.page, SIGNED_OUT);

  // Signed in there again; "Sign out everywhere else" asks first, then ends it; this device stays.
  await signIn(b.page, acct.email);
  await a.page.reload();
  await expect(rows).toHaveCount(2);
  await privacy(a.page).getByRole('button', { name: 'Sign out everywhere else' }).click();
  const dialog = a.page.getByRole('dialog', { name: 'Sign out everywhere else?' });
  await expect(dialog).toContainText('Every other device (1) is signed out');
  await dialog.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(privacy(a.page).getByRole('status').filter({ hasText: 'Signed out of 1 other device.' })).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(privacy(a.page).getByRole('button', { name: 'Sign out everywhere else' })).toHaveCount(0);
  await expectSignedOut(b.page, SIGNED_OUT);

  // "Sign out" on this device is the ordinary sign-out: the login page, without a notice.
  await rows.nth(0).getByRole('button', { name: 'Sign out' }).click();
  await expect(a.page).toHaveURL(/\/login$/);
  await expect(a.page.getByRole('alert')).toHaveCount(0);
  await a.ctx.close();
  await b.ctx.close();
});

test('password change: field errors under their fields, then the other device is signed out and only the new password signs in', async ({ browser }) => {
  test.setTimeout(120_000);
  const acct = uniqueAccount('pass');
  const a = await device(browser, MAC_CHROME);
  await onboardedOwner(a.page, acct);
  const b = await device(browser, WINDOWS_FIREFOX);
  await signIn(b.page, acct.email);
  await openSettings(a.page);
  const section = privacy(a.page).getByRole('group', { name: 'Change password' });
  const current = section.getByLabel('Current password');
  const fresh = section.getByLabel('New password', { exact: true });
  const confirm = section.getByLabel('Confirm new password');

  // Checked here first: a short password and a confirmation that differs.
  await current.fill(PASSWORD);
  await fresh.fill('short');
  await confirm.fill('other');
  await section.getByRole('button', { name: 'Change password' }).click();
  await expect(fresh).toHaveAttribute('aria-invalid', 'true');
  await expect(a.page.locator('#password-new-error')).toHaveText('Password must be at least 8 characters');
  await expect(a.page.locator('#password-confirm-error')).toHaveText('Passwords do not match');

  // The server's answer for a wrong current password, under that field.
  await current.fill('not-my-password');
  await fresh.fill('new-password-456');
  await confirm.fill('new-password-456');
  await section.getByRole('button', { name: 'Change password' }).click();
  await expect(a.page.locator('#password-current-error')).toHaveText('The password is incorrect.');
  await expect(current).toHaveAttribute('aria-invalid', 'true');
  await expect(current).toHaveAttribute('aria-describedby', 'password-current-error');
  await expect(current).toBeFocused();

  await current.fill(PASSWORD);
  await section.getByRole('button', { name: 'Change password' }).click();
  await expect(section.getByRole('status')).toHaveText('Your password has been changed. Other devices were signed out.');
  await expect(current).toHaveValue('');
  await expect(privacy(a.page).getByTestId('session-row')).toHaveCount(1);

  // The other device: signed out; the old password no longer signs in, the new one does.
  await expectSignedOut(b.page, SIGNED_OUT);
  await b.page.getByLabel('Email').fill(acct.email);
  await b.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await b.page.getByRole('button', { name: 'Sign in' }).click();
  await expect(b.page.getByText('Invalid email or password')).toBeVisible();
  await signIn(b.page, acct.email, 'new-password-456');

  // This device stayed signed in.
  await a.page.reload();
  await expect(privacy(a.page).getByTestId('session-row')).toHaveCount(2);
  await a.ctx.close();
  await b.ctx.close();
});

test('e-mail change: a wrong password and a taken address refused on their fields, a code to the new address, a wrong code refused, then the account moves and the old address gets a notice', async ({ browser }) => {
  test.setTimeout(120_000);
  const acct = uniqueAccount('mail');
  const newEmail = acct.email.replace('mail.', 'moved.');
  const a = await device(browser, MAC_CHROME);
  await onboardedOwner(a.page, acct);
  await openSettings(a.page);
  const section = privacy(a.page).getByRole('group', { name: 'E-mail address' });
  await expect(section).toContainText(`You sign in with ${acct.email}`);

  // A wrong password: under the password field, nothing sent.
  await section.getByLabel('New e-mail address').fill(newEmail);
  await section.getByLabel('Password').fill('not-my-password');
  await section.getByRole('button', { name: 'Send code' }).click();
  await expect(a.page.locator('#email-change-password-error')).toHaveText('The password is incorrect.');

  // An address another account has: under the address field.
  const taken = uniqueAccount('took');
  const registered = await a.page.request.post('/api/auth/register', { data: { name: taken.name, email: taken.email, password: PASSWORD, password_confirmation: PASSWORD } });
  expect(registered.ok()).toBe(true);
  await section.getByLabel('New e-mail address').fill(taken.email);
  await section.getByLabel('Password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Send code' }).click();
  await expect(a.page.locator('#email-change-new-error')).toHaveText('Email is already registered');
  await expect(section.getByLabel('New e-mail address')).toHaveAttribute('aria-invalid', 'true');

  const since = Date.now();
  await section.getByLabel('New e-mail address').fill(newEmail);
  await section.getByLabel('Password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Send code' }).click();
  await expect(section.getByRole('status').first()).toHaveText(`We sent a 6-digit code to ${newEmail}.`);
  const codeField = section.getByLabel('Code from the e-mail');
  await expect(codeField).toBeFocused();
  const code = await waitForVerificationCode(newEmail);

  await codeField.fill(code === '000000' ? '111111' : '000000');
  await section.getByRole('button', { name: 'Confirm new address' }).click();
  await expect(a.page.locator('#email-change-code-error')).toHaveText('Invalid or expired code');
  await expect(codeField).toHaveAttribute('aria-invalid', 'true');

  await codeField.fill(code);
  await section.getByRole('button', { name: 'Confirm new address' }).click();
  await expect(section.getByRole('status').filter({ hasText: 'Your e-mail address has been changed.' })).toBeVisible();
  await expect(section).toContainText(`You sign in with ${newEmail}`);

  // The old address is told, without the new one in the mail.
  const notice = await waitForMail(acct.email, /e-mail address was changed/, { since });
  expect(notice.text).not.toContain(newEmail);

  // The new address signs in; the old one no longer does.
  await a.page.getByRole('button', { name: 'Log out' }).click();
  await expect(a.page).toHaveURL(/\/login$/);
  await a.page.getByLabel('Email').fill(acct.email);
  await a.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await a.page.getByRole('button', { name: 'Sign in' }).click();
  await expect(a.page.getByText('Invalid email or password')).toBeVisible();
  await signIn(a.page, newEmail);
  await a.ctx.close();
});

/** The e2e server's SQLite file (global-setup.ts: DATA_DIR is the mail folder's sibling 'data'). */
function serverDatabase(): Database.Database {
  const file = path.join(path.dirname(process.env.E2E_MAIL_DIR!), 'data', 'avail.sqlite');
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  return db;
}

/** The id of the session `page`'s stored token belongs to (GET /api/me/sessions: `current`). */
async function currentSessionId(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const res = await page.request.get(`${serverUrl()}/api/me/sessions`, { headers: { Authorization: `Bearer ${token}` } });
  const { sessions } = (await res.json()) as { sessions: Array<{ id: string; current: boolean }> };
  return sessions.find((s) => s.current)!.id;
}

/** Moves a session 31 days into the past (SESSION_IDLE_DAYS is 30): as far as it goes, the time moved on. */
function ageSession(id: string) {
  const db = serverDatabase();
  try {
    const back = 31 * 86_400_000;
    const changed = db.prepare('UPDATE auth_tokens SET last_used_at = last_used_at - ?, created_at = created_at - ? WHERE id = ?').run(back, back, id);
    expect(changed.changes).toBe(1);
  } finally {
    db.close();
  }
}

test('an expired session: the next action, or opening the app again, lands on the login page with the expiry message', async ({ browser }) => {
  test.setTimeout(90_000);
  const acct = uniqueAccount('idle');
  const a = await device(browser, MAC_CHROME);
  await onboardedOwner(a.page, acct);
  const b = await device(browser, WINDOWS_FIREFOX);
  await signIn(b.page, acct.email);

  // Open in the app: its next action.
  ageSession(await currentSessionId(a.page));
  await expectSignedOut(a.page, EXPIRED);

  // Closed, left for a month, then opened again: the start-up check finds it expired. (The tab is
  // closed first: a tab left open notices the expiry on its own, through its replication stream,
  // and a reload of its login page afterwards has nothing left to say.)
  const idB = await currentSessionId(b.page);
  await b.page.close();
  ageSession(idB);
  const reopened = await b.ctx.newPage();
  await reopened.goto('/app/availability');
  await expect(reopened).toHaveURL(/\/login$/);
  await expect(reopened.getByRole('alert').filter({ hasText: EXPIRED })).toBeVisible();
  expect(await reopened.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
  await a.ctx.close();
  await b.ctx.close();
});

test('an edit made offline before the session expired is not lost: it reaches the server once the owner signs in again', async ({ browser }) => {
  test.setTimeout(120_000);
  const acct = uniqueAccount('keep');
  const a = await device(browser, MAC_CHROME);
  await onboardedOwner(a.page, acct);
  await a.page.getByRole('link', { name: 'Availability' }).click();
  const status = a.page.getByTestId('sync-status');
  await expect(status).toHaveText('Online', { timeout: 30_000 });
  const id = await currentSessionId(a.page);

  // Offline: Monday now ends at 12:00, pending on this device only.
  await a.ctx.setOffline(true);
  await expect(status).toHaveText('Offline');
  await a.page.getByRole('button', { name: 'Edit Schedule' }).click();
  const modal = a.page.getByRole('dialog', { name: 'Edit Schedule' });
  await modal.getByLabel('End').first().fill('12:00');
  await modal.getByRole('button', { name: 'Save Schedule' }).click();
  await expect(a.page.getByText('Changes pending sync')).toBeVisible();

  // A month passes; back online the push meets the expired session: the login page says so.
  ageSession(id);
  await a.ctx.setOffline(false);
  await expect(a.page).toHaveURL(/\/login$/, { timeout: 30_000 });
  await expect(a.page.getByRole('alert').filter({ hasText: EXPIRED })).toBeVisible();

  // Signed in again on the same device (it returns to Availability), the pending edit is pushed;
  // another device reads it from the server.
  await a.page.getByLabel('Email').fill(acct.email);
  await a.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await a.page.getByRole('button', { name: 'Sign in' }).click();
  await expect(a.page).toHaveURL(/\/app\/availability$/);
  await expect(a.page.getByText('9:00 AM - 12:00 PM')).toBeVisible();
  await expect(a.page.getByText('Changes pending sync')).toHaveCount(0, { timeout: 30_000 });
  const b = await device(browser, WINDOWS_FIREFOX);
  await signIn(b.page, acct.email);
  await b.page.getByRole('link', { name: 'Availability' }).click();
  await expect(b.page.getByText('9:00 AM - 12:00 PM')).toBeVisible();
  await a.ctx.close();
  await b.ctx.close();
});

test('another tab of the same browser follows a sign-out at once (no call needed)', async ({ browser }) => {
  test.setTimeout(90_000);
  const acct = uniqueAccount('tabs');
  const a = await device(browser, MAC_CHROME);
  await onboardedOwner(a.page, acct);
  const second = await a.ctx.newPage();
  await second.goto('/app/settings');
  await expect(privacy(second).getByTestId('session-row').first()).toBeVisible();
  await a.page.getByRole('button', { name: 'Log out' }).click();
  await expect(a.page).toHaveURL(/\/login$/);
  // The second tab leaves the owner's screen by itself and says why.
  await expect(second).toHaveURL(/\/login$/, { timeout: 10_000 });
  await expect(second.getByRole('alert').filter({ hasText: SIGNED_OUT })).toBeVisible();
  await expect(second.getByRole('region', { name: 'Privacy & Security' })).toHaveCount(0);
  await a.ctx.close();
});

test('desktop app: a session ended from the browser signs the app out and removes its token through the bridge', async ({ browser }) => {
  test.setTimeout(120_000);
  const acct = uniqueAccount('dtok');
  const web = await device(browser, MAC_CHROME);
  await onboardedOwner(web.page, acct);

  const desk = await device(browser, DESKTOP_APP, { baseURL: process.env.E2E_DESKTOP_URL });
  await installRecordingBridge(desk.page, { origin: serverUrl(), confirmed: true });
  await signIn(desk.page, acct.email);
  expect((await callsOf(desk.page, 'saveToken')).length).toBe(1);

  await openSettings(web.page);
  const row = privacy(web.page).getByTestId('session-row').filter({ hasText: 'Avail desktop on macOS' });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Sign out' }).click();
  await expect(row).toHaveCount(0);

  await nextAction(desk.page);
  await expect(desk.page).toHaveURL(/\/login$/);
  await expect(desk.page.getByRole('alert').filter({ hasText: SIGNED_OUT })).toBeVisible();
  await expect.poll(() => callsOf(desk.page, 'clearToken').then((c) => c.length)).toBeGreaterThan(0);
  expect(await desk.page.evaluate(() => (window as unknown as { __bridgeToken(): string | null }).__bridgeToken())).toBeNull();
  await web.ctx.close();
  await desk.ctx.close();
});

const WIDTHS = [
  { name: '1280', width: 1280, height: 900 },
  { name: '375', width: 375, height: 812 },
] as const;

test('Privacy & Security at 1280 and 375 px, light and dark, en-GB and de-DE dates: no overflow, no axe violation', async ({ browser }) => {
  test.setTimeout(180_000);
  const dir = path.join(process.cwd(), 'test-results', 'screenshots');
  mkdirSync(dir, { recursive: true });
  for (const locale of ['en-GB', 'de-DE']) {
    const acct = uniqueAccount(locale === 'en-GB' ? 'shot' : 'shde');
    const a = await device(browser, MAC_CHROME, { locale });
    await onboardedOwner(a.page, acct);
    const b = await device(browser, DESKTOP_APP);
    await signIn(b.page, acct.email);
    await b.ctx.close();
    await openSettings(a.page);
    const section = privacy(a.page);
    await expect(section.getByTestId('session-row')).toHaveCount(2);
    for (const width of WIDTHS) {
      await a.page.setViewportSize({ width: width.width, height: width.height });
      // The states: the list and the empty forms; the password form's errors; the e-mail code step.
      const states: Array<{ name: string; enter: () => Promise<void> }> = [
        { name: 'list', enter: async () => undefined },
        {
          name: 'errors',
          enter: async () => {
            await section.getByRole('button', { name: 'Change password' }).click();
            await expect(a.page.locator('#password-current-error')).toBeVisible();
          },
        },
        {
          name: 'code',
          enter: async () => {
            await section.getByLabel('New e-mail address').fill(`${acct.email}.moved.example`);
            await section.getByRole('group', { name: 'E-mail address' }).getByLabel('Password').fill(PASSWORD);
            await section.getByRole('button', { name: 'Send code' }).click();
            await expect(section.getByLabel('Code from the e-mail')).toBeVisible();
          },
        },
      ];
      for (const state of states) {
        await state.enter();
        for (const scheme of ['light', 'dark'] as const) {
          await a.page.emulateMedia({ colorScheme: scheme });
          await a.page.waitForTimeout(300);
          const where = `${state.name} at ${width.name} px, ${scheme}, ${locale}`;
          expect(await a.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${where}: horizontal overflow`).toBe(0);
          // No box beyond the card, and no text beyond its box (a long address in a sentence).
          const wide = await section.evaluate((el) => {
            const right = el.getBoundingClientRect().right + 1;
            return [...el.querySelectorAll('*')]
              .filter((c) => c.getBoundingClientRect().right > right || (c.matches('p, span, strong, label, h3, li, button') && c.scrollWidth > c.clientWidth + 1))
              .map((c) => c.outerHTML.slice(0, 80));
          });
          expect(wide, `${where}: wider than the card`).toEqual([]);
          expect(await axeViolations(a.page, { include: 'section[aria-labelledby="privacy-title"]' }), where).toEqual([]);
          // The sticky header is set in place for the picture (else it covers part of the scrolled section).
          await saveScreenshot(section, { path: path.join(dir, `account-security-${state.name}-${width.name}-${scheme}-${locale}.png`), style: '.app-header { position: static !important; }' });
        }
        await a.page.emulateMedia({ colorScheme: 'light' });
      }
      if (width.name === '1280') {
        await section.getByRole('button', { name: 'Use another address' }).click();
        await a.page.reload();
        await expect(section.getByTestId('session-row')).toHaveCount(2);
      }
    }
    await a.ctx.close();
  }
});
