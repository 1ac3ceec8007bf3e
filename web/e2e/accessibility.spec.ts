/**
 * Every screen, at 1280 px and at 375 px wide: no serious or critical WCAG 2 A/AA violation found
 * by axe-core, no horizontal page overflow at 375 px, and a full-page screenshot saved to
 * test-results/screenshots/<screen>-<width>.png for a person to look at.
 *
 * Screens: the anonymous ones (landing, legal, support, 404, login, register, verify-email,
 * forgot-password), the five onboarding steps, the owner's app (overview, availability, links,
 * analytics, settings) and the visitor's public page (week and month).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { registerVerified } from './helpers.ts';
import { uniqueAccount } from './fixtures.ts';

const WIDTHS = [
  { name: '1280', width: 1280, height: 800 },
  { name: '375', width: 375, height: 812 },
] as const;

/** axe on the current page; returns the serious/critical violations as readable lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
}

/** Pixels the page is wider than the viewport (0 when nothing overflows sideways). */
async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Checks the screen currently shown at the current viewport and saves its screenshot. */
async function checkScreen(page: Page, screen: string, width: (typeof WIDTHS)[number]) {
  // Let entrance transitions settle before measuring colours.
  await page.waitForTimeout(350);
  expect.soft(await seriousViolations(page), `${screen} at ${width.name} px`).toEqual([]);
  if (width.width === 375) expect.soft(await horizontalOverflow(page), `${screen} overflows at 375 px`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `test-results/screenshots/${screen}-${width.name}.png`, fullPage: true });
}

const anonymousScreens: { screen: string; path: string; ready: (page: Page) => Promise<void> }[] = [
  { screen: 'landing', path: '/', ready: (p) => expect(p.getByText('Now in Beta')).toBeVisible() },
  { screen: 'privacy', path: '/privacypolicy', ready: (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() },
  { screen: 'terms', path: '/termsofservice', ready: (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() },
  { screen: 'support', path: '/support', ready: (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() },
  { screen: 'not-found', path: '/no/such/page', ready: (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() },
  { screen: 'login', path: '/login', ready: (p) => expect(p.getByLabel('Email')).toBeVisible() },
  { screen: 'register', path: '/register', ready: (p) => expect(p.getByLabel('Full name')).toBeVisible() },
  { screen: 'verify-email', path: '/verify-email?email=someone%40example.com', ready: (p) => expect(p.getByLabel('Verification code')).toBeVisible() },
  { screen: 'forgot-password', path: '/forgot-password', ready: (p) => expect(p.getByLabel('Email')).toBeVisible() },
  { screen: 'public-not-found', path: '/u/nobody-here', ready: (p) => expect(p.getByText('This availability link could not be found.')).toBeVisible() },
];

for (const width of WIDTHS) {
  test.describe(`at ${width.name} px`, () => {
    test.use({ viewport: { width: width.width, height: width.height } });

    test('anonymous screens are accessible and fit', async ({ page }) => {
      for (const s of anonymousScreens) {
        await page.goto(s.path);
        await s.ready(page);
        await checkScreen(page, s.screen, width);
      }
    });

    test("onboarding, the owner's screens and the public page are accessible and fit", async ({ page, browser }) => {
      const acct = uniqueAccount(`a11y${width.name}`);
      await registerVerified(page, acct);

      // Onboarding: the five steps.
      await expect(page.getByRole('button', { name: 'Get Started' })).toBeVisible();
      await checkScreen(page, 'onboarding-1-welcome', width);
      await page.getByRole('button', { name: 'Get Started' }).click();
      await expect(page.getByRole('button', { name: 'Continue' })).toBeEnabled();
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

      // The visitor's page: a fresh context with no token.
      const visitor = await browser.newContext({ viewport: { width: width.width, height: width.height }, timezoneId: 'Europe/Brussels', locale: 'en-US' });
      const v = await visitor.newPage();
      await v.goto(`/${acct.username}`);
      await expect(v.getByRole('heading', { name: `${acct.name}'s Availability` })).toBeVisible();
      await checkScreen(v, 'public-week', width);
      await v.getByRole('button', { name: 'Month', exact: true }).click();
      await checkScreen(v, 'public-month', width);
      await visitor.close();
    });
  });
}
