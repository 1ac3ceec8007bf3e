/**
 * Every screen, at 1280 px and at 375 px wide, in the light and in the dark colour scheme
 * (prefers-color-scheme, emulated): no axe-core violation of any rule and any impact — WCAG 2 A/AA
 * and the best practices (`region`, landmarks, headings…) alike, color-contrast included (issue 23
 * item 8) — the scheme's palette really applied (a dark page under dark, a light
 * one under light), no horizontal page overflow at 375 px, and a full-page screenshot saved to
 * test-results/screenshots/<screen>-<width>-<scheme>.png for a person to look at (with E2E_SCREENSHOTS=1).
 *
 * Screens: the anonymous ones (landing, legal, support, 404, login and its error alert, register,
 * verify-email, forgot-password), the five onboarding steps, the owner's app (overview,
 * availability and its Edit Schedule dialog, also with a slot's field error, links, analytics,
 * settings, settings with a calendar feed in the error state, the Apple help) and the visitor's public
 * page (week, a free time's tooltip, month with a day's times, the propose dialog with its errors);
 * issue 24's screens: the dashboard's Proposed times with a pending, a confirmed and a declined
 * proposal, its Decline and Cancel meeting dialogs, and the one-click link page of the owner's
 * e-mail (a valid link, after acting, a used link and an invalid one).
 */
import { expect, test, type Page } from '@playwright/test';
import { axeViolations, onboardedOwner, registerVerified, saveScreenshot } from './helpers.ts';
import { nextWeekMonday, uniqueAccount, waitForMail, zonedDateTime } from './fixtures.ts';

const WIDTHS = [
  { name: '1280', width: 1280, height: 800 },
  { name: '375', width: 375, height: 812 },
] as const;

const SCHEMES = ['light', 'dark'] as const;
type Scheme = (typeof SCHEMES)[number];

/** axe on the current page with every rule (no tag filter: WCAG and best practices); every violation, whatever its impact, as readable lines. */
const violations = (page: Page) => axeViolations(page);

/** Pixels the page is wider than the viewport (0 when nothing overflows sideways). */
async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Relative luminance (WCAG) of the body's background and text colours as the browser computes them. */
async function bodyLuminance(page: Page): Promise<{ background: number; text: number }> {
  return page.evaluate(() => {
    const lum = (css: string) => {
      const [r, g, b] = (css.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((c) => {
        const v = Number(c) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = getComputedStyle(document.body);
    return { background: lum(style.backgroundColor), text: lum(style.color) };
  });
}

let axeChecks = 0;
test.beforeEach(() => {
  axeChecks = 0;
});
test.afterEach(() => {
  test.info().annotations.push({ type: 'axe checks', description: String(axeChecks) });
});

/** Checks the screen currently shown, in both schemes, at the current viewport, and saves its screenshots. */
async function checkScreen(page: Page, screen: string, width: (typeof WIDTHS)[number]) {
  for (const scheme of SCHEMES) await checkScheme(page, screen, width, scheme);
  // Leave the page as a user with the default (light) scheme sees it.
  await page.emulateMedia({ colorScheme: 'light' });
}

async function checkScheme(page: Page, screen: string, width: (typeof WIDTHS)[number], scheme: Scheme) {
  await page.emulateMedia({ colorScheme: scheme });
  // Let entrance and colour transitions settle before measuring colours.
  await page.waitForTimeout(350);
  const where = `${screen} at ${width.name} px, ${scheme}`;
  const lum = await bodyLuminance(page);
  if (scheme === 'dark') {
    expect.soft(lum.background, `${where}: dark page background`).toBeLessThan(0.05);
    expect.soft(lum.text, `${where}: light text`).toBeGreaterThan(0.6);
  } else {
    expect.soft(lum.background, `${where}: light page background`).toBeGreaterThan(0.85);
    expect.soft(lum.text, `${where}: dark text`).toBeLessThan(0.05);
  }
  expect.soft(await violations(page), where).toEqual([]);
  axeChecks += 1;
  if (width.width === 375) expect.soft(await horizontalOverflow(page), `${where}: overflows at 375 px`).toBeLessThanOrEqual(0);
  await saveScreenshot(page, { path: `test-results/screenshots/${screen}-${width.name}-${scheme}.png`, fullPage: true });
}

const anonymousScreens: { screen: string; path: string; ready: (page: Page) => Promise<void> }[] = [
  { screen: 'landing', path: '/', ready: (p) => expect(p.getByText('Now in Beta')).toBeVisible() },
  { screen: 'privacy', path: '/privacypolicy', ready: (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() },
  { screen: 'terms', path: '/termsofservice', ready: (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() },
  { screen: 'support', path: '/support', ready: (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() },
  { screen: 'not-found', path: '/no/such/page', ready: (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() },
  { screen: 'login', path: '/login', ready: (p) => expect(p.getByLabel('Email')).toBeVisible() },
  {
    screen: 'login-error-alert',
    path: '/login',
    ready: async (p) => {
      await p.getByLabel('Email').fill('nobody-a11y@example.com');
      await p.getByLabel('Password', { exact: true }).fill('wrong-password-1');
      await p.getByRole('button', { name: 'Sign in' }).click();
      await expect(p.locator('.alert-error')).toBeVisible();
    },
  },
  { screen: 'register', path: '/register', ready: (p) => expect(p.getByLabel('Full name')).toBeVisible() },
  { screen: 'verify-email', path: '/verify-email?email=someone%40example.com', ready: (p) => expect(p.getByLabel('Verification code')).toBeVisible() },
  { screen: 'forgot-password', path: '/forgot-password', ready: (p) => expect(p.getByLabel('Email')).toBeVisible() },
  { screen: 'public-not-found', path: '/u/nobody-here', ready: (p) => expect(p.getByText('This availability link could not be found.')).toBeVisible() },
];

for (const width of WIDTHS) {
  test.describe(`at ${width.name} px`, () => {
    test.use({ viewport: { width: width.width, height: width.height } });

    test('anonymous screens are accessible and fit, light and dark', async ({ page }) => {
      test.setTimeout(180_000);
      for (const s of anonymousScreens) {
        await page.goto(s.path);
        await s.ready(page);
        await checkScreen(page, s.screen, width);
      }
      expect(axeChecks).toBe(anonymousScreens.length * SCHEMES.length);
      if (width.width === 375) {
        // The landing page's full-screen menu (a dialog) on phones.
        await page.goto('/');
        await page.getByRole('button', { name: 'Open menu' }).click();
        await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
        await checkScreen(page, 'landing-menu', width);
      }
    });

    test('the five onboarding steps are accessible and fit, light and dark', async ({ page }) => {
      test.setTimeout(180_000);
      const acct = uniqueAccount(`a11y${width.name}`);
      await registerVerified(page, acct);

      // Onboarding: the five steps.
      await expect(page.getByRole('button', { name: 'Get Started' })).toBeVisible();
      await checkScreen(page, 'onboarding-1-welcome', width);
      await page.getByRole('button', { name: 'Get Started' }).click();
      await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
      // The current step is named on every width (at 375 px the stepper shows bare numbers).
      if (width.width === 375) await expect(page.getByText('Step 2 of 5 · Timezone')).toBeVisible();
      await checkScreen(page, 'onboarding-2-timezone', width);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('heading', { name: 'Set your weekly schedule' })).toBeVisible();
      await checkScreen(page, 'onboarding-3-schedule', width);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Username').fill(acct.username);
      await expect(page.getByText('Username is available')).toBeVisible();
      await checkScreen(page, 'onboarding-4-username', width);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByRole('button', { name: 'Go to Dashboard' })).toBeVisible();
      await checkScreen(page, 'onboarding-5-complete', width);
      await page.getByRole('button', { name: 'Go to Dashboard' }).click();
      await expect(page).toHaveURL(/\/app\/dashboard$/);
    });

    test("the owner's screens and dialogs are accessible and fit, light and dark", async ({ page }) => {
      test.setTimeout(240_000);
      const acct = uniqueAccount(`a11yo${width.name}`);
      await onboardedOwner(page, acct);

      const ownerScreens: { screen: string; path: string; ready: () => Promise<void> }[] = [
        { screen: 'dashboard-overview', path: '/app/dashboard', ready: () => expect(page.getByTestId('total-views')).toBeVisible() },
        { screen: 'dashboard-availability', path: '/app/availability', ready: () => expect(page.getByRole('button', { name: 'Edit Schedule' })).toBeVisible() },
        { screen: 'dashboard-links', path: '/app/links', ready: () => expect(page.getByRole('button', { name: 'Generate New Text' })).toBeVisible() },
        { screen: 'dashboard-analytics', path: '/app/analytics', ready: () => expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible() },
        { screen: 'settings', path: '/app/settings', ready: () => expect(page.getByRole('heading', { name: 'My Calendars' })).toBeVisible() },
      ];
      for (const s of ownerScreens) {
        await page.goto(s.path);
        await s.ready();
        await expect(page.locator('.spinner')).toHaveCount(0);
        await checkScreen(page, s.screen, width);
      }

      // A dialog of the owner's app: Edit Schedule on the availability screen.
      await page.goto('/app/availability');
      await page.getByRole('button', { name: 'Edit Schedule' }).click();
      await expect(page.getByRole('dialog', { name: 'Edit Schedule' })).toBeVisible();
      await checkScreen(page, 'dashboard-availability-dialog', width);
      // The same dialog with a slot's field error (a repeated Monday 09:00–17:00).
      const schedule = page.getByRole('dialog', { name: 'Edit Schedule' });
      await schedule.getByRole('button', { name: /Add Another Time Slot/ }).click();
      await schedule.getByLabel('Day').nth(1).selectOption({ label: 'Monday' });
      await schedule.getByRole('button', { name: 'Save Schedule' }).click();
      await expect(schedule.getByTestId('slot-error')).toHaveText('This time slot is already set for this day');
      await checkScreen(page, 'dashboard-availability-dialog-slot-error', width);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);

      // Settings: the Apple help, then a calendar feed that answers 404 (the 'Error' badge).
      await page.goto('/app/settings');
      await page.locator('.provider-card', { hasText: 'Apple iCloud' }).getByRole('button', { name: 'Connect' }).click();
      await page.getByRole('button', { name: 'How do I create an app-specific password?' }).click();
      await expect(page.getByRole('dialog', { name: 'Create an app-specific password' })).toBeVisible();
      await checkScreen(page, 'settings-apple-help', width);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog', { name: 'Create an app-specific password' })).toHaveCount(0);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      const feed = process.env.E2E_ICS_URL!.replace('/calendar.ics', `/switch/${acct.username}.ics`);
      await page.locator('.provider-card', { hasText: 'ICS feed URL' }).getByRole('button', { name: 'Connect' }).click();
      await page.getByLabel('Calendar feed URL').fill(feed);
      await page.getByRole('button', { name: 'Connect feed' }).click();
      const row = page.getByTestId('connection-row');
      await expect(row.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });
      expect((await fetch(`${feed}?set=404`)).status).toBe(204);
      await page.getByRole('button', { name: 'Sync Now' }).click();
      await expect(row.getByText('Error', { exact: true })).toBeVisible({ timeout: 30_000 });
      // The busy rules of the connection, open.
      await row.locator('summary', { hasText: 'Busy rules' }).click();
      await expect(row.getByRole('button', { name: 'Save busy rules' })).toBeVisible();
      if (width.width === 375) {
        // Room at 375 px: every busy-rules control at least 260 px wide, each label above its control.
        const form = row.getByRole('form', { name: /^Busy rules of / });
        for (const field of await form.locator('.busy-rule').all()) {
          const label = (await field.locator('label').boundingBox())!;
          const control = (await field.locator('select, input').boundingBox())!;
          expect(control.width).toBeGreaterThanOrEqual(260);
          expect(label.y + label.height).toBeLessThanOrEqual(control.y + 1);
        }
      }
      await expect(page.locator('.spinner')).toHaveCount(0);
      await checkScreen(page, 'settings-connection-error', width);
    });

    test('the public page, its month view and the propose dialog are accessible and fit, light and dark', async ({ page, browser }) => {
      test.setTimeout(240_000);
      const acct = uniqueAccount(`a11yv${width.name}`);
      await onboardedOwner(page, acct);

      // The visitor's page: a fresh context with no token.
      const visitor = await browser.newContext({ locale: 'en-GB', viewport: { width: width.width, height: width.height }, timezoneId: 'Europe/Brussels' });
      const v = await visitor.newPage();
      await v.goto(`/${acct.username}`);
      await expect(v.getByRole('heading', { name: `${acct.name}'s Availability` })).toBeVisible();
      await checkScreen(v, 'public-week', width);
      // Next week holds the owner's whole Monday 09:00–17:00 (the default schedule) in the future.
      await v.getByRole('button', { name: 'Next week' }).click();
      const freeTime = v.getByRole('button', { name: /propose a time$/ }).first();
      await expect(freeTime).toBeVisible();
      await checkScreen(v, 'public-week-next', width);
      if (width.width === 1280) {
        // A free time's tooltip (hover).
        await freeTime.hover();
        await expect(v.getByRole('tooltip')).toBeVisible();
        await checkScreen(v, 'public-week-tooltip', width);
        await v.mouse.move(5, 5);
      }
      await v.getByRole('button', { name: 'Month', exact: true }).click();
      await checkScreen(v, 'public-month', width);
      // A day with free hours (this month, or the next one near a month's end) and its times.
      const freeDays = v.getByRole('group', { name: 'Month of free times' }).getByRole('button', { name: /free hours$/ });
      if ((await freeDays.count()) === 0) {
        await v.getByRole('button', { name: 'Next month' }).click();
        await expect(freeDays.first()).toBeVisible();
      }
      await freeDays.last().click();
      await expect(v.getByRole('heading', { name: /^Free on / })).toBeVisible();
      await checkScreen(v, 'public-month-day', width);
      // The propose dialog, then its error messages.
      await v.getByRole('button', { name: /propose a time$/ }).first().click();
      const dialog = v.getByRole('dialog', { name: 'Propose a time' });
      await expect(dialog).toBeVisible();
      await checkScreen(v, 'public-propose-dialog', width);
      await dialog.getByRole('button', { name: 'Send proposal' }).click();
      await expect(dialog.getByText('Name is required')).toBeVisible();
      await checkScreen(v, 'public-propose-dialog-errors', width);
      await visitor.close();
    });

    test("issue 24: Proposed times, its dialogs and the e-mail's one-click link page are accessible and fit, light and dark", async ({ page, browser, baseURL }) => {
      test.setTimeout(300_000);
      const acct = uniqueAccount(`a11yp${width.name}`);
      await onboardedOwner(page, acct);
      const zone = 'Europe/Brussels';
      const monday = nextWeekMonday(zone);
      // Pia's proposal last: its e-mail to the owner (with the one-click links) is the newest then.
      const names = ['Cleo Confirmed', 'Dirk Declined', 'Pia Pending'];
      let since = 0;
      for (const [i, name] of names.entries()) {
        since = Date.now() - 1000;
        const res = await page.request.post(`/api/public/${acct.username}/proposals`, {
          headers: { 'X-Forwarded-For': `198.51.100.${(width.width === 375 ? 200 : 210) + i}` },
          data: { start: zonedDateTime(monday, `1${i}:00`, zone), end: zonedDateTime(monday, `1${i}:30`, zone), name, email: `${name.split(' ')[0].toLowerCase()}.a11y@example.org`, note: 'A short note', visitor_timezone: 'America/New_York', language: 'en' },
        });
        expect(res.status(), await res.text()).toBe(201);
      }
      let mailText = '';
      await expect
        .poll(async () => {
          mailText = (await waitForMail(acct.email, /./, { since })).text;
          return mailText.includes('Pia Pending');
        }, { timeout: 20_000 })
        .toBe(true);
      const item = (name: string) => page.getByRole('region', { name: 'Proposed times' }).getByTestId('proposal-item').filter({ hasText: name });
      await page.goto('/app/dashboard');
      await expect(item('Pia Pending').locator('.proposal-status')).toHaveText('Pending', { timeout: 20_000 });
      await item('Cleo Confirmed').getByRole('button', { name: /^Confirm/ }).click();
      await expect(item('Cleo Confirmed').locator('.proposal-status')).toHaveText('Confirmed');
      await item('Dirk Declined').getByRole('button', { name: /^Decline/ }).click();
      const decline = page.getByRole('dialog', { name: 'Decline proposal' });
      await decline.getByRole('textbox').fill('Sorry, I am away that afternoon.');
      await checkScreen(page, 'proposals-decline-dialog', width);
      await decline.getByRole('button', { name: 'Decline', exact: true }).click();
      await expect(item('Dirk Declined').locator('.proposal-status')).toHaveText('Declined');
      await expect(page.locator('.spinner')).toHaveCount(0);
      await checkScreen(page, 'proposals-card', width);
      await item('Cleo Confirmed').getByRole('button', { name: /^Cancel the meeting/ }).click();
      await expect(page.getByRole('dialog', { name: 'Cancel meeting' })).toBeVisible();
      await checkScreen(page, 'proposals-cancel-dialog', width);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);

      // The one-click link of the owner's e-mail for Pia's proposal, in a context with no sign-in.
      const links = [...new Set(mailText.match(/https?:\/\/[^\s"'<>]+\/proposal#t=[^\s"'<>]+/g) ?? [])].map((l) => l.replace(/&amp;/g, '&'));
      const ctx = await browser.newContext({ baseURL, locale: 'en-GB', timezoneId: zone, viewport: { width: width.width, height: width.height } });
      const l = await ctx.newPage();
      let confirmLink = '';
      for (const link of links) {
        await l.goto(link);
        const heading = l.getByRole('heading', { level: 1 });
        await expect(heading).toHaveText(/^(Confirm this meeting\?|Decline this proposal\?)$/);
        if ((await heading.textContent()) === 'Confirm this meeting?') confirmLink = link;
        else await checkScreen(l, 'proposal-link-decline', width);
      }
      expect(confirmLink).not.toBe('');
      await l.goto(confirmLink);
      await expect(l.getByRole('button', { name: 'Confirm meeting' })).toBeVisible();
      await checkScreen(l, 'proposal-link-confirm', width);
      await l.getByRole('button', { name: 'Confirm meeting' }).click();
      await expect(l.getByRole('heading', { level: 1 })).toHaveText('Meeting confirmed');
      await checkScreen(l, 'proposal-link-done', width);
      await l.goto('/');
      await l.goto(confirmLink);
      await expect(l.getByRole('main').getByRole('alert')).toBeVisible();
      await checkScreen(l, 'proposal-link-used', width);
      await l.goto('/proposal#t=forged.token');
      await expect(l.getByRole('main').getByRole('alert')).toHaveText('This link is not valid.');
      await checkScreen(l, 'proposal-link-invalid', width);
      await ctx.close();
    });
  });
}
