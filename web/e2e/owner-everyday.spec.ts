/**
 * The owner's everyday screens without rough edges (issue 23 items 1, 2, 3, 5, 10), as a new owner
 * sees them at 375 and 1280 px, light and dark, en-GB and de-DE:
 * a broken calendar can be fixed or removed, Sync Now never claims success for a failed feed, the
 * Links page fits a phone with a personal link, the dashboard is honest about broken calendars and
 * shows that the week scrolls, an unknown /app address and the empty states say what to do next.
 * Screenshots go to test-results/screenshots/everyday-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { uniqueAccount } from './fixtures.ts';
import { onboardedOwner, saveScreenshot } from './helpers.ts';

const SHOTS = 'test-results/screenshots';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

/** The page is never wider than the screen. */
async function expectNoSidewaysScroll(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), { message: 'page wider than the viewport' })
    .toBeLessThanOrEqual(0);
}

/** Screenshots of the current screen at 1280 and 375 px in light and dark; at 375 px nothing scrolls sideways. */
async function shootBoth(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize(DESKTOP);
    await saveScreenshot(page, { path: `${SHOTS}/everyday-${name}-1280-${scheme}.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await expectNoSidewaysScroll(page);
    await saveScreenshot(page, { path: `${SHOTS}/everyday-${name}-375-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(DESKTOP);
}

/** A feed of the test ICS server that answers 200 until `setFeed(…, 404)`. */
function switchFeed(username: string): string {
  return process.env.E2E_ICS_URL!.replace('/calendar.ics', `/switch/${username}.ics`);
}
async function setFeed(url: string, status: number) {
  const res = await fetch(`${url}?set=${status}`);
  expect(res.status).toBe(204);
}

/** Records, across page loads, whether "✓ Sync Complete" is ever shown (read with `sawSyncComplete`). */
async function watchForSyncComplete(page: Page) {
  await page.addInitScript(() => {
    const watch = () =>
      new MutationObserver(() => {
        if (document.body.textContent?.includes('Sync Complete')) sessionStorage.setItem('sawSyncComplete', '1');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    if (document.body) watch();
    else document.addEventListener('DOMContentLoaded', watch);
  });
  await page.reload();
}
const sawSyncComplete = (page: Page) => page.evaluate(() => sessionStorage.getItem('sawSyncComplete') === '1');

test('a feed that answers 404: Sync Now names it and why, the row offers Try again and Disconnect, the dashboard says it needs attention', async ({ page }) => {
  const acct = uniqueAccount('broke');
  await onboardedOwner(page, acct);
  const feed = switchFeed(acct.username);

  await page.goto('/app/settings');
  await page.locator('.provider-card', { hasText: 'ICS feed URL' }).getByRole('button', { name: 'Connect' }).click();
  await page.getByLabel('Calendar feed URL').fill(feed);
  await page.getByRole('button', { name: 'Connect feed' }).click();
  const row = page.getByTestId('connection-row');
  await expect(row.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });
  const name = (await row.locator('.connection-name span').first().innerText()).trim();
  expect(name).not.toBe('');
  // A healthy connection: Disconnect, no fix offered.
  await expect(row.getByRole('button', { name: 'Disconnect' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Try again' })).toHaveCount(0);

  // The feed now answers 404: Sync Now never says "✓ Sync Complete"; the alert names the feed and why.
  await setFeed(feed, 404);
  await watchForSyncComplete(page);
  await page.getByRole('button', { name: 'Sync Now' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Failed to sync calendars. Please try again.' });
  await expect(alert).toBeVisible({ timeout: 30_000 });
  await expect(alert.getByTestId('sync-failures').locator('li')).toHaveText([`${name}: Calendar feed not found (HTTP 404). Check the link.`]);
  await expect(page.getByRole('button', { name: 'Sync Now' })).toBeVisible();
  expect(await sawSyncComplete(page)).toBe(false);

  // The row shows the error with its reason, and the fix and Disconnect (issue 23 widens T-31).
  await expect(row.getByText('Error', { exact: true })).toBeVisible();
  await expect(row.getByTestId('connection-error')).toContainText('Calendar feed not found (HTTP 404)');
  await expect(row.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Disconnect' })).toBeVisible();
  await shootBoth(page, 'settings-broken-feed');

  // Try again while it still fails: the same honest answer.
  await page.getByRole('alert').getByRole('button', { name: 'Dismiss' }).click();
  await row.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `${name}: Calendar feed not found (HTTP 404)` })).toBeVisible({ timeout: 30_000 });
  expect(await sawSyncComplete(page)).toBe(false);

  // The dashboard counts it as connected and says it needs attention, by name, linking to the fix.
  await page.goto('/app/dashboard');
  const card = page.getByTestId('calendars-card');
  await expect(card.locator('.stat-value')).toHaveText('1');
  await expect(card.getByTestId('calendars-line')).toHaveText('1 connected · 1 needs attention');
  await expect(card.getByTestId('calendars-attention')).toContainText(`${name} (error)`);
  await card.click();
  await expect(page).toHaveURL(/\/app\/settings#calendars$/);

  // The feed is back: Try again fixes the connection.
  await setFeed(feed, 200);
  await row.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${name} synced.` })).toBeVisible({ timeout: 30_000 });
  await expect(row.getByText('Connected', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expect(row.getByTestId('connection-error')).toHaveCount(0);

  // Broken again, then removed: the error connection's Disconnect asks with the spec's wording.
  await setFeed(feed, 404);
  await page.getByRole('button', { name: 'Sync Now' }).click();
  await expect(row.getByText('Error', { exact: true })).toBeVisible({ timeout: 30_000 });
  await row.getByRole('button', { name: 'Disconnect' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('cached events will be removed');
  await confirm.getByRole('button', { name: 'Disconnect' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('ICS feed disconnected.')).toBeVisible();
  expect(await sawSyncComplete(page)).toBe(false);

  // No calendar left: the dashboard's card says so and its button opens My Calendars.
  await page.goto('/app/dashboard');
  await expect(card.locator('.stat-value')).toHaveText('0');
  await card.getByText('Connect a calendar').click();
  await expect(page).toHaveURL(/\/app\/settings#calendars$/);
});

test('Links at 375 px with a personal link: nothing wider than the screen, a real checkbox by its label, one style of Copy, the whole host prefix', async ({ page }) => {
  const acct = uniqueAccount('links');
  await onboardedOwner(page, acct);
  await page.goto('/app/links');
  const card = page.getByTestId('personal-links');
  await card.getByLabel('Who is it for?').fill('Acme Corporation International Holdings');
  await card.getByRole('button', { name: 'Create link' }).click();
  await expect(card.getByTestId('share-link')).toHaveCount(1);
  await expect(page.getByTestId('share-link-url')).toContainText('key=');

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize(PHONE);
    await expectNoSidewaysScroll(page);

    // Every address is shown whole inside its box (it wraps), never cut off or pushing the page wider.
    for (const id of ['public-link', 'share-link-url', 'feed-freebusy', 'feed-events', 'embed-snippet']) {
      const box = page.getByTestId(id);
      await expect(box).toBeVisible();
      const fits = await box.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().right <= window.innerWidth);
      expect(fits, `${id} fits the screen`).toBe(true);
    }

    // The switch is a checkbox of normal size right beside its label, and it works.
    const checkbox = card.getByLabel(/Only people with a personal link/);
    const cb = (await checkbox.boundingBox())!;
    const label = (await card.locator('.checkbox-row span').boundingBox())!;
    expect(cb.width).toBeLessThanOrEqual(24);
    expect(cb.height).toBeLessThanOrEqual(24);
    expect(label.x - (cb.x + cb.width)).toBeGreaterThanOrEqual(0);
    expect(label.x - (cb.x + cb.width)).toBeLessThanOrEqual(16);
    expect(Math.abs(label.y - cb.y)).toBeLessThanOrEqual(12);

    // All Copy buttons of addresses (public link, personal link, feeds, embed) look the same.
    const copies = page.getByRole('button', { name: /^Copy($| link for | free\/busy feed| events feed| embed snippet)/ });
    await expect(copies).toHaveCount(5);
    const looks = await copies.evaluateAll((els) => els.map((el) => `${getComputedStyle(el).backgroundColor} ${getComputedStyle(el).color}`));
    expect(new Set(looks).size, looks.join(' | ')).toBe(1);

    // The username field's prefix (the link's host) is shown whole.
    const prefix = page.locator('.input-prefix span');
    await expect(prefix).toHaveText(/\/$/);
    expect(await prefix.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    await saveScreenshot(page, { path: `${SHOTS}/everyday-links-375-${scheme}.png`, fullPage: true });
  }

  await card.getByLabel(/Only people with a personal link/).check();
  await expect(page.getByTestId('plain-link-off')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(DESKTOP);
  await saveScreenshot(page, { path: `${SHOTS}/everyday-links-1280-light.png`, fullPage: true });
});

for (const locale of ['en-GB', 'de-DE'] as const) {
  test.describe(`dashboard (${locale})`, () => {
    test.use({ locale });

    test(`the name uses the header's room, the link is legible, the week at 375 px shows it scrolls (${locale})`, async ({ page }) => {
      const acct = { ...uniqueAccount('dash'), name: 'Maya Lindqvist-Fredriksson' };
      await onboardedOwner(page, acct);
      await page.setViewportSize(DESKTOP);

      // 1280: the whole name, with a title; the public link whole.
      const userName = page.locator('.user-name');
      await expect(userName).toHaveText(acct.name);
      await expect(userName).toHaveAttribute('title', acct.name);
      expect(await userName.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      const link = page.getByTestId('dashboard-link');
      await expect(link).toHaveText(new RegExp(`/${acct.username}$`));
      expect(await link.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      // The week fits: no scroll hint.
      await expect(page.getByRole('region', { name: 'Week calendar' })).toBeVisible();
      await expect(page.getByTestId('week-scroll-hint')).toHaveCount(0);

      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize(PHONE);
        await expectNoSidewaysScroll(page);
        const week = page.getByRole('region', { name: 'Week calendar' });
        const hint = page.getByTestId('week-scroll-hint');
        await expect(hint).toContainText('Swipe sideways to see the whole week.');
        const later = hint.getByRole('button', { name: 'Later days' });
        const earlier = hint.getByRole('button', { name: 'Earlier days' });
        await week.evaluate((el) => (el.scrollLeft = 0));
        await expect(earlier).toBeDisabled();
        await expect(later).toBeEnabled();
        await later.click();
        await expect.poll(() => week.evaluate((el) => el.scrollLeft)).toBeGreaterThan(50);
        await expect(earlier).toBeEnabled();
        // The hour labels stay in view while the days scroll.
        const gutter = (await page.locator('.cal-gutter').boundingBox())!;
        const weekBox = (await week.boundingBox())!;
        expect(Math.abs(gutter.x - weekBox.x)).toBeLessThanOrEqual(2);
        // The link is legible at 375 too.
        expect(await link.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
        await saveScreenshot(page, { path: `${SHOTS}/everyday-dashboard-375-${scheme}-${locale}.png`, fullPage: true });
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize(DESKTOP);
      await saveScreenshot(page, { path: `${SHOTS}/everyday-dashboard-1280-light-${locale}.png`, fullPage: true });
    });
  });
}

test('an unknown /app address stays in the app and leads back; empty states say what to do next with a working button', async ({ page }) => {
  const acct = uniqueAccount('empty');
  await onboardedOwner(page, acct);

  // No proposals yet → Share your link opens Links.
  const proposals = page.locator('#proposals');
  await expect(proposals).toContainText('No proposals yet.');
  await proposals.getByRole('link', { name: 'Share your link' }).click();
  await expect(page).toHaveURL(/\/app\/links$/);
  await expect(page.getByRole('heading', { name: 'Links', level: 1 })).toBeVisible();

  // No views yet → Share your link opens Links.
  await page.getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { name: 'No analytics data yet' })).toBeVisible();
  await page.getByRole('link', { name: 'Share your link' }).click();
  await expect(page).toHaveURL(/\/app\/links$/);

  // No calendars → Connect a calendar opens My Calendars.
  await page.getByRole('link', { name: 'Overview' }).click();
  await page.getByTestId('calendars-card').getByText('Connect a calendar').click();
  await expect(page).toHaveURL(/\/app\/settings#calendars$/);
  await expect(page.getByRole('heading', { name: 'My Calendars' })).toBeVisible();

  // An unknown address: not found inside the app (its tabs still there), a way back.
  await page.goto('/app/nothing');
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeVisible();
  await expect(page.locator('.app-header')).toBeVisible();
  await expect(page).toHaveTitle('Page not found · Avail');
  await shootBoth(page, 'app-not-found');
  await page.getByRole('link', { name: 'Back to dashboard' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await expect(page.getByRole('heading', { name: /^Welcome back/ })).toBeVisible();
  await expect(page).not.toHaveTitle('Page not found · Avail');
});
