/**
 * Issue 22: the visitor's page on any phone, in the visitor's language, free time first — against
 * the real server, in Debian's Chromium.
 * - 320, 375, 768 and 1280 px in en-US, de-DE, fr-FR and ja-JP: the free times are in the first
 *   screen (buttons on a phone, labelled blocks from 768 px), nothing scrolls sideways, dates and
 *   times read as the locale writes them (ja-JP: Japanese formats, English texts).
 * - An owner free on Mondays only: the page opens on the week of the next Monday (the Monday chosen
 *   on a phone); an empty week says when the next free time is and goes there.
 * - Week ↔ Month keeps the date in view; the view and date live in the address (back/forward,
 *   reload and a shared address come back to the same place).
 * - The language menu and the 12/24-hour switch are remembered; the server's HTML is German for a
 *   German browser and readable with JavaScript off.
 * - axe finds nothing on the phone layout in light and dark.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { OWNER_ZONE, todayIn, uniqueAccount } from './fixtures.ts';
import { axeViolations, onboardedOwner, saveScreenshot } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/screenshots';
const owner = uniqueAccount('mon');
let ipSeq = 0;

/** A visitor of `locale` at `width` px, in the owner's zone, with their own client address. */
async function visitor(browser: Browser, baseURL: string | undefined, locale: string, width = 375, extra: { javaScriptEnabled?: boolean; colorScheme?: 'light' | 'dark' } = {}) {
  const ctx = await browser.newContext({
    baseURL,
    locale,
    timezoneId: OWNER_ZONE,
    viewport: { width, height: width < 768 ? 740 : 900 },
    extraHTTPHeaders: { 'X-Forwarded-For': `198.18.0.${10 + ipSeq++}` },
    ...extra,
  });
  return { ctx, page: await ctx.newPage() };
}

/** The first Monday, from today on, with free time left (Monday 09:00–17:00 in the owner's zone). */
function firstFreeMonday(): string {
  let d = todayIn(OWNER_ZONE);
  const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: OWNER_ZONE, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  const dow = () => new Date(`${d}T12:00:00Z`).getUTCDay();
  if (dow() === 1 && hour < 16) return d;
  do d = new Date(Date.parse(`${d}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  while (dow() !== 1);
  return d;
}

/** Page overflow to the side (CSS px; ≤ 0 when nothing scrolls sideways). */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('set up an owner free on Mondays only', async ({ page }) => {
  await onboardedOwner(page, owner);
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const res = await page.request.post('/api/me/availability-rules', {
    headers: { Authorization: `Bearer ${token}` },
    data: { rules: [{ weekday: 0, start_time_local: '09:00', end_time_local: '17:00' }] },
  });
  expect(res.ok()).toBe(true);
});

test('every width and locale: free times in the first screen, nothing sideways, the locale’s own formats', async ({ browser, baseURL }) => {
  const monday = firstFreeMonday();
  const expectations: Record<string, { heading: RegExp; time: RegExp; weekday: RegExp }> = {
    'en-US': { heading: /'s Availability$/, time: /^9:00\sAM\s–\s5:00\sPM$/, weekday: /^Mon$/ },
    'de-DE': { heading: /^Verfügbarkeit von /, time: /^09:00–17:00 Uhr$/, weekday: /^Mo\.?$/ },
    'fr-FR': { heading: /^Disponibilités de /, time: /^09:00 – 17:00$/, weekday: /^lun\.$/ },
    // Japanese formats, English texts (no Japanese messages yet).
    'ja-JP': { heading: /'s Availability$/, time: /^9時00分～17時00分$/, weekday: /^月$/ },
  };
  for (const [locale, want] of Object.entries(expectations)) {
    for (const width of [320, 375, 768, 1280]) {
      const { ctx, page } = await visitor(browser, baseURL, locale, width);
      await page.goto(`/${owner.username}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(want.heading);
      const height = page.viewportSize()!.height;
      if (width < 768) {
        // The day strip with the first free Monday chosen, and its times as buttons on the first screen.
        const day = page.getByRole('group', { name: /./ }).locator('.pub-strip-day[aria-pressed="true"]');
        await expect(day).toHaveCount(1);
        await expect(day.locator('strong')).toHaveText(String(Number(monday.slice(8))));
        await expect(day.locator('.pub-strip-weekday')).toHaveText(want.weekday);
        const button = page.getByTestId('day-buttons').getByRole('button').first();
        await expect(button).toHaveText(want.time);
        const box = (await button.boundingBox())!;
        expect(box.y + box.height, `${locale} ${width}: the first time button is in the first screen`).toBeLessThanOrEqual(height);
        expect(box.height, 'a thumb-sized button').toBeGreaterThanOrEqual(44);
        await expect(page.locator('.pub-grid')).toBeHidden();
      } else {
        // The week grid, every free block labelled with its times.
        const block = page.locator('.pub-slot').first();
        await expect(block.locator('span')).toHaveText(want.time);
        const box = (await block.boundingBox())!;
        expect(box.y, `${locale} ${width}: the first free block starts in the first screen`).toBeLessThan(height);
        await expect(page.locator('.pub-strip')).toBeHidden();
      }
      expect(await sideways(page), `${locale} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
      if (locale === 'de-DE' || (locale === 'en-US' && (width === 375 || width === 1280))) {
        await saveScreenshot(page, { path: `${SHOTS}/public-${locale}-${width}.png`, fullPage: true });
      }
      await ctx.close();
    }
  }
});

test('free time first: an owner free on Mondays opens on the next Monday; an empty week says when the next free time is', async ({ browser, baseURL }) => {
  const monday = firstFreeMonday();
  const { ctx, page } = await visitor(browser, baseURL, 'en-GB', 1280);
  await page.goto(`/${owner.username}`);
  const blocks = page.getByRole('group', { name: 'Week of free times' }).getByRole('button');
  await expect(blocks).toHaveCount(1);
  await expect(blocks.first()).toHaveAccessibleName(new RegExp(`^Free Mon ${Number(monday.slice(8))} \\w+, 09:00–17:00 — propose a time$`));
  // The week before the first free Monday's (Monday-first weeks in en-GB) has nothing free left:
  // it says so and when the next free time is, with a button to go there.
  await page.goto(`/${owner.username}?date=${new Date(Date.parse(`${monday}T12:00:00Z`) - 3 * 86_400_000).toISOString().slice(0, 10)}`);
  const empty = page.getByTestId('pub-empty');
  await expect(empty).toContainText('No free times this week.');
  await expect(empty).toContainText(`Next free time: Mon ${Number(monday.slice(8))}`);
  await empty.getByRole('button', { name: 'Show next free time' }).click();
  await expect(blocks).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`[?&]date=${monday}`));
  await ctx.close();
});

test('Week ↔ Month keeps the date; the address keeps view and date through back, forward and reload', async ({ browser, baseURL }) => {
  const { ctx, page } = await visitor(browser, baseURL, 'en-GB', 1280);
  // A date in the month after next: open it as a shared address would.
  const [y, m] = todayIn(OWNER_ZONE).split('-').map(Number);
  const later = new Date(Date.UTC(y, m + 1, 10)).toISOString().slice(0, 10);
  const monthName = new Date(`${later}T12:00:00Z`).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  await page.goto(`/${owner.username}?view=month&date=${later}`);
  const range = page.getByTestId('pub-range');
  await expect(range).toHaveText(monthName);
  await expect(page.getByRole('button', { name: 'Month', exact: true })).toHaveAttribute('aria-pressed', 'true');
  // Month → Week: the week holding that date, not the current week.
  await page.getByRole('button', { name: 'Week', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${owner.username}\\?date=${later}$`));
  const weekLabel = (await range.textContent())!;
  expect(weekLabel).toMatch(new RegExp(`${monthName.split(' ')[0].slice(0, 3)}`));
  await expect(page.getByRole('button', { name: 'Go to current week' })).toBeEnabled();
  // Week → Month again: the same month.
  await page.getByRole('button', { name: 'Month', exact: true }).click();
  await expect(range).toHaveText(monthName);
  await page.getByRole('button', { name: 'Next month' }).click();
  await expect(range).not.toHaveText(monthName);
  const nextMonthUrl = page.url();
  // Back and forward walk the same places; reload keeps the place.
  await page.goBack();
  await expect(range).toHaveText(monthName);
  await page.goBack();
  await expect(range).toHaveText(weekLabel);
  await expect(page.getByRole('button', { name: 'Week', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.goForward();
  await expect(range).toHaveText(monthName);
  await page.goto(nextMonthUrl);
  await expect(range).not.toHaveText(monthName);
  await expect(page.getByRole('button', { name: 'Month', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await ctx.close();
});

test('the language menu and the 12/24-hour switch are remembered; German HTML for a German browser, readable without JavaScript', async ({ browser, baseURL }) => {
  const { ctx, page } = await visitor(browser, baseURL, 'en-GB', 375);
  await page.goto(`/${owner.username}`);
  const button = page.getByTestId('day-buttons').getByRole('button').first();
  await expect(button).toHaveText('09:00–17:00');
  await page.getByRole('button', { name: '12-hour' }).click();
  await expect(button).toHaveText(/^9:00\sam\s–\s5:00\spm$/i);
  await page.getByLabel('Language').selectOption('de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Verfügbarkeit von ${owner.name}`);
  await expect(page.getByRole('button', { name: 'Woche', exact: true })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  // A new visit: the server renders the remembered choices (cookie), before any script runs.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Verfügbarkeit von ${owner.name}`);
  await expect(button).toHaveText(/^9:00\sam\s–\s5:00\spm$/i);
  await page.getByRole('button', { name: '24 Stunden' }).click();
  // German texts, German formats (the visitor's region kept: de-GB), 24-hour again.
  await expect(button).toHaveText('09:00–17:00 Uhr');
  await ctx.close();

  // German browser, JavaScript off: the server's HTML alone, in German, with the times as buttons.
  const off = await visitor(browser, baseURL, 'de-DE', 375, { javaScriptEnabled: false });
  const res = await off.page.goto(`/${owner.username}`);
  expect(res!.headers()['content-language']).toBe('de');
  expect(res!.headers().vary).toMatch(/Accept-Language/);
  await expect(off.page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(off.page.getByRole('heading', { level: 1 })).toHaveText(`Verfügbarkeit von ${owner.name}`);
  await expect(off.page.getByTestId('day-buttons').getByRole('button').first()).toHaveText('09:00–17:00 Uhr');
  await expect(off.page.getByText('Wählen Sie eine passende Zeit und schlagen Sie sie vor.', { exact: false })).toBeVisible();
  await off.ctx.close();

  // An unknown link: a 404 page with a way home and to sign in, in German.
  const lost = await visitor(browser, baseURL, 'de-DE', 375);
  const nf = await lost.page.goto('/niemand-hier-xyz');
  expect(nf!.status()).toBe(404);
  await expect(lost.page.getByRole('heading', { name: 'Link nicht gefunden' })).toBeVisible();
  await expect(lost.page.getByRole('link', { name: 'Zur Startseite von Avail' })).toHaveAttribute('href', '/');
  await expect(lost.page.getByRole('link', { name: 'Anmelden' })).toHaveAttribute('href', '/login');
  await lost.ctx.close();
});

test('the phone layout and its propose dialog pass axe in light and dark', async ({ browser, baseURL }) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const { ctx, page } = await visitor(browser, baseURL, 'de-DE', 375, { colorScheme });
    await page.goto(`/${owner.username}`);
    await expect(page.getByTestId('day-buttons')).toBeVisible();
    const scan = async (what: string) => {
      expect(await axeViolations(page), `${what} (${colorScheme})`).toEqual([]);
    };
    await scan('phone week');
    await saveScreenshot(page, { path: `${SHOTS}/public-de-DE-375-${colorScheme}.png`, fullPage: true });
    await page.getByTestId('day-buttons').getByRole('button').first().click();
    const dialog = page.getByRole('dialog', { name: 'Zeit vorschlagen' });
    await expect(dialog).toBeVisible();
    // Pre-filled with the chosen window: its start is the window's start.
    await expect(dialog.getByLabel('Beginn')).toHaveValue(/\d+/);
    await expect(dialog).toContainText('Frei ');
    await page.waitForTimeout(200); // the entrance animation, before measuring colours
    await scan('propose dialog');
    await ctx.close();
  }
});
