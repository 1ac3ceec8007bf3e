/**
 * The owner's dashboard screens of issue 4 against the real server: the Total Views card's real
 * count and change, Analytics per-day counts and ranges, the Links page's generated e-mail text
 * (zone, context, failure fallback, copy feedback), date overrides seen by a visitor, the alert
 * durations (fake timers), and the once-only parallel preload of the four data areas (T-14, T-15).
 * Screenshots at 1280 and 375 px go to test-results/screenshots/.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { nextWeekMonday, OWNER_ZONE, uniqueAccount } from './fixtures.ts';
import { axeViolations, onboardedOwner, saveScreenshot, WCAG_AA } from './helpers.ts';

const SHOTS = 'test-results/screenshots';

/** Serious or critical WCAG 2 A/AA violations axe finds on the page, as readable lines. */
const seriousAxe = (page: Page) => axeViolations(page, { tags: WCAG_AA, seriousOnly: true });

/** Full-page screenshots at 1280 and 375 px, no axe violation; at 375 px no sideways scrolling. */
async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await seriousAxe(page), name).toEqual([]);
  await saveScreenshot(page, { path: `${SHOTS}/owner-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await saveScreenshot(page, { path: `${SHOTS}/owner-${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Opens the owner's public page as a new anonymous visitor with its own user agent. */
async function visit(browser: Browser, baseURL: string | undefined, username: string, userAgent: string) {
  const ctx = await browser.newContext({ locale: 'en-GB', baseURL, timezoneId: OWNER_ZONE, userAgent });
  const pub = await ctx.newPage();
  const counted = pub.waitForResponse((r) => r.url().includes(`/api/public/${username}/availability`) && r.ok());
  await pub.goto(`/${username}`);
  await counted;
  await expect(pub.getByRole('heading', { name: /'s Availability$/ })).toBeVisible();
  await ctx.close();
}

/** The text of the alerts of one kind. */
const errorAlerts = (page: Page) => page.getByRole('alert').locator('.alert-body');
const statusAlerts = (page: Page) => page.locator('.alert[role="status"] .alert-body');

test('Total Views and Analytics show real visits: count, change, per-day bars and ranges', async ({ page, browser, baseURL }) => {
  const owner = uniqueAccount('views');
  await onboardedOwner(page, owner);

  // A new owner: 0 views, no change yet, and the Analytics placeholder with its dead Filter.
  await expect(page.getByTestId('total-views')).toHaveText('0');
  await expect(page.getByTestId('views-change')).toHaveText('No views yet');
  await expect(page.getByText('+12%')).toHaveCount(0);
  await page.getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { name: 'No analytics data yet' })).toBeVisible();
  await expect(page.getByLabel('Range').locator('option')).toHaveText(['Last 7 days', 'Last 30 days', 'Last 3 months']);
  const before = await page.locator('.app-main').innerHTML();
  await page.getByRole('button', { name: /Filter/ }).click();
  expect(await page.locator('.app-main').innerHTML()).toBe(before);
  await shoot(page, 'analytics-empty');

  // Two visitors (different browsers) open the public page; one of them twice (one view a day).
  await visit(browser, baseURL, owner.username, 'Mozilla/5.0 (X11; Linux x86_64) VisitorOne/1.0');
  await visit(browser, baseURL, owner.username, 'Mozilla/5.0 (Macintosh) VisitorTwo/2.0');
  await visit(browser, baseURL, owner.username, 'Mozilla/5.0 (X11; Linux x86_64) VisitorOne/1.0');

  // The owner reloads (the preload fetches fresh numbers): 2 views, all new this week.
  await page.goto('/app/dashboard');
  await expect(page.getByTestId('total-views')).toHaveText('2');
  await expect(page.getByTestId('views-change')).toHaveText('New this week');
  await shoot(page, 'overview');

  // Analytics: today's bar carries the 2 views; the ranges refetch with days=30 and 90.
  await page.getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByTestId('analytics-total')).toHaveText('2');
  await expect(page.getByTestId('analytics-change')).toHaveText('New in this period');
  const bars = page.getByTestId('views-chart').getByRole('img');
  await expect(bars).toHaveCount(7);
  await expect(bars.last()).toHaveAccessibleName(/: 2 views$/);
  await expect(bars.first()).toHaveAccessibleName(/: 0 views$/);
  await expect(page.getByTestId('analytics-best-day')).not.toHaveText('No views in this range');
  await expect(page.getByRole('table')).toContainText('2');
  await shoot(page, 'analytics');

  for (const [label, days] of [['Last 30 days', 30], ['Last 3 months', 90]] as const) {
    const req = page.waitForRequest((r) => r.url().includes('/api/me/analytics/links') && new URL(r.url()).searchParams.get('days') === String(days));
    await page.getByLabel('Range').selectOption({ label });
    await req;
    await expect(bars).toHaveCount(days);
    await expect(page.getByTestId('analytics-total')).toHaveText('2');
    await expect(page.locator('.analytics-stats')).toContainText(label);
  }
});

test('Links: generated e-mail text lists free windows in the chosen zone, falls back on failure, copy feedback 2 s', async ({ page }) => {
  const owner = uniqueAccount('links');
  await page.clock.install();
  await onboardedOwner(page, owner);
  await page.getByRole('link', { name: 'Links' }).click();
  const link = `${new URL(page.url()).origin}/${owner.username}`;
  await expect(page.getByTestId('public-link')).toHaveText(link);
  await expect(page.getByTestId('username-rule')).toHaveText(/You can change your username (once every 14 days|again in \d+ days?)\./);
  const textarea = page.getByRole('textbox', { name: 'Email text' });
  await expect(textarea).toHaveValue(new RegExp(`Here are the times I'm free: ${link}`));
  await expect(page.getByLabel('Times shown in')).toHaveValue(OWNER_ZONE);

  // Generate in the owner's zone, with a context line.
  await page.getByLabel('What is it for? (optional)').fill('a quick intro call');
  const generate = page.getByRole('button', { name: 'Generate New Text' });
  await generate.click();
  await expect(textarea).toHaveValue(/Here are my next free times \(Europe\/Brussels\):/);
  const brussels = await textarea.inputValue();
  expect(brussels).toContain("I'd love to find a time for a quick intro call.");
  expect(brussels).toContain(link);
  const firstLine = /• Mon \d{1,2} \w{3}, (\d\d):(\d\d)–(\d\d):(\d\d)/.exec(brussels);
  expect(firstLine, brussels).not.toBeNull();

  // Another zone shifts the listed hours (Brussels is 6 h ahead of New York in winter, 5 or 6 in summer).
  // While the server writes, the button says 'Generating...' and is disabled.
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  await page.route('**/api/me/profile/generate-email-text', async (route) => {
    await gate;
    await route.continue();
  });
  await page.getByLabel('Times shown in').selectOption('America/New_York');
  await generate.click();
  await expect(page.getByRole('button', { name: 'Generating...' })).toBeDisabled();
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/me/profile/generate-email-text'));
  release();
  await answered;
  await page.unroute('**/api/me/profile/generate-email-text');
  await expect(textarea).toHaveValue(/Here are my next free times \(America\/New_York\):/);
  const ny = await textarea.inputValue();
  const nyLine = /• Mon \d{1,2} \w{3}, (\d\d):(\d\d)–(\d\d):(\d\d)/.exec(ny);
  expect(nyLine, ny).not.toBeNull();
  const shift = Number(firstLine![1]) - Number(nyLine![1]);
  expect([5, 6]).toContain(shift);
  expect(Number(firstLine![3]) - Number(nyLine![3])).toBe(shift);
  await shoot(page, 'links');

  // Copy puts the text on the clipboard; 'Copied!' shows for 2 s on both buttons (fake clock, paused).
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(link).origin });
  const emailText = await textarea.inputValue();
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 500);
  for (const [idle, btn, copied] of [
    ['Copy Email Text', page.getByRole('button', { name: /^(Copy Email Text|Copied!)$/ }), emailText],
    ['Copy', page.locator('.copy-row').filter({ has: page.getByTestId('public-link') }).getByRole('button'), link],
  ] as const) {
    await btn.click();
    await expect(btn).toHaveText('Copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(copied);
    await page.clock.runFor(1_900);
    await expect(btn).toHaveText('Copied!');
    await page.clock.runFor(150);
    await expect(btn).toHaveText(idle);
  }
  await page.clock.resume();

  // Failure: the server's fallback text is used, with the error and an info alert (M-19, M-20).
  const fallback = `Hi,\n\nHere are the times I'm free: ${link}\n\nFallback body from the server.\n\nBest,\n${owner.name}`;
  await page.route('**/api/me/profile/generate-email-text', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ success: false, text: fallback, default: true, error: 'Failed to generate email text. Using default.' }),
    }),
  );
  await generate.click();
  await expect(errorAlerts(page)).toHaveText('Failed to generate email text. Using default.');
  // The start of the server's text on one line, about 60 characters, then '...'.
  const preview = fallback.replace(/\s+/g, ' ').slice(0, 60).trimEnd();
  await expect(statusAlerts(page)).toHaveText(`Using default text: ${preview}...`);
  await expect(textarea).toHaveValue(fallback);

  // Alert durations (spec §4): the info alert closes after 5 s, the error stays at 9 s and closes at 10 s.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 500);
  await generate.click();
  await expect(errorAlerts(page)).toHaveText('Failed to generate email text. Using default.');
  await expect(statusAlerts(page)).toHaveCount(1);
  await page.clock.runFor(4_900);
  await expect(statusAlerts(page)).toHaveCount(1);
  await page.clock.runFor(200);
  await expect(statusAlerts(page)).toHaveCount(0);
  await expect(errorAlerts(page)).toHaveCount(1);
  await page.clock.runFor(3_800); // 9 s
  await expect(errorAlerts(page)).toHaveText('Failed to generate email text. Using default.');
  await page.clock.runFor(1_100); // 10.1 s
  await expect(errorAlerts(page)).toHaveCount(0);
  await page.clock.resume();
  await page.unroute('**/api/me/profile/generate-email-text');

  // No free window in the next 14 days (every Monday off): the default text and an info alert.
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  for (let week = 0; week < 3; week++) {
    const [y, m, d] = nextWeekMonday(OWNER_ZONE).split('-').map(Number);
    const date = new Date(Date.UTC(y, m - 1, d + 7 * week - 7)).toISOString().slice(0, 10);
    const res = await page.request.post('/api/me/exceptions', {
      headers: { Authorization: `Bearer ${token}` },
      data: { date, start_time_local: null, end_time_local: null },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  await generate.click();
  await expect(statusAlerts(page)).toHaveText('No free times in the next 14 days were found, so the default text is shown.');
  await expect(errorAlerts(page)).toHaveCount(0);
  await expect(textarea).toHaveValue(new RegExp(`^Hi,\n\nHere are the times I'm free: ${link}\n`));
});

test('date overrides: a day off, then custom hours, then removed — as the visitor sees them', async ({ page, browser, baseURL }) => {
  const owner = uniqueAccount('ovrd');
  await page.clock.install();
  await onboardedOwner(page, owner);
  const monday = nextWeekMonday(OWNER_ZONE);
  const visitor = await browser.newContext({ locale: 'en-GB', baseURL, timezoneId: OWNER_ZONE });
  const pub = await visitor.newPage();
  const mondayBlocks = pub.getByRole('button', { name: /^Free Mon / });
  // Next week by its address: without a date the page opens on the first week with free time,
  // which skips the Monday once it is a day off.
  async function publicNextWeek() {
    await pub.goto(`/${owner.username}?date=${monday}`);
    await expect(pub.getByRole('heading', { name: `${owner.name}'s Availability` })).toBeVisible();
  }
  await publicNextWeek();
  await expect(mondayBlocks).toHaveCount(1);
  await expect(mondayBlocks).toHaveAccessibleName(/^Free Mon \d+ \w+, 09:00–17:00/);

  await page.getByRole('link', { name: 'Availability' }).click();
  const card = page.getByTestId('date-overrides');
  await expect(card.getByText('No upcoming date overrides.')).toBeVisible();

  // Add a day off, with the dialog's validation first.
  await card.getByRole('button', { name: 'Add override' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add date override' });
  await expect(dialog.getByLabel('Date')).toBeFocused();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please choose a date');
  await dialog.getByLabel('Date').fill(monday);
  await dialog.getByLabel('Custom hours').check();
  await dialog.getByLabel('Start').fill('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please fill in all time fields');
  await dialog.getByLabel('Start').fill('13:00');
  await dialog.getByLabel('End').fill('12:00');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('End time must be after start time');
  await shoot(page, 'add-override-dialog');
  await dialog.getByLabel('Unavailable all day').check();

  // Success alert closes after 5 s (fake clock).
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 500);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(statusAlerts(page)).toHaveText('Date override saved.');
  await page.clock.runFor(4_900);
  await expect(statusAlerts(page)).toHaveText('Date override saved.');
  await page.clock.runFor(200);
  await expect(statusAlerts(page)).toHaveCount(0);
  await page.clock.resume();

  const row = card.getByTestId('override-row');
  await expect(row).toHaveCount(1);
  const [y, m, d] = monday.split('-').map(Number);
  const shown = new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  await expect(row).toContainText(`Mon, ${shown}`);
  await expect(row).toContainText('Unavailable all day');
  await expect(card.getByText('Pending sync')).toHaveCount(0);
  await expect(async () => {
    await publicNextWeek();
    await pub.waitForLoadState('networkidle');
    await expect(mondayBlocks).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });

  // Custom hours replace the day off: the visitor sees exactly 10:00–12:00 on that Monday.
  await card.getByRole('button', { name: 'Add override' }).click();
  await dialog.getByLabel('Date').fill(monday);
  await dialog.getByLabel('Custom hours').check();
  await dialog.getByLabel('Start').fill('10:00');
  await dialog.getByLabel('End').fill('12:00');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('10:00 AM - 12:00 PM');
  await expect(row).not.toContainText('Unavailable all day');
  await expect(async () => {
    await publicNextWeek();
    await expect(mondayBlocks).toHaveCount(1, { timeout: 2_000 });
    await expect(mondayBlocks).toHaveAccessibleName(/^Free Mon \d+ \w+, 10:00–12:00/, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await shoot(page, 'availability');
  // The dashboard's week preview shows the override's hours on that Monday, marked as such.
  await page.getByRole('link', { name: 'Overview' }).click();
  await page.getByRole('button', { name: 'Next week' }).click();
  await expect(page.locator(`.cal-col[data-date="${monday}"] .cal-available`)).toHaveText('10:00–12:00 (override)');
  await page.getByRole('link', { name: 'Availability' }).click();

  // Remove: back to the weekly rule.
  await row.getByRole('button', { name: `Remove override for Mon, ${shown}` }).click();
  await expect(statusAlerts(page)).toHaveText('Date override removed.');
  await expect(row).toHaveCount(0);
  await expect(async () => {
    await publicNextWeek();
    await expect(mondayBlocks).toHaveAccessibleName(/^Free Mon \d+ \w+, 09:00–17:00/, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole('link', { name: 'Overview' }).click();
  await page.getByRole('button', { name: 'Next week' }).click();
  await expect(page.locator(`.cal-col[data-date="${monday}"] .cal-available`)).toHaveText('09:00–17:00');
  // D-14: 'Go to current week' returns to this week (and is then disabled).
  await page.getByRole('button', { name: 'Go to current week' }).click();
  await expect(page.locator(`.cal-col[data-date="${monday}"]`)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Go to current week' })).toBeDisabled();
  await visitor.close();
});

test('Availability: 12-hour list and summary; Edit Schedule validates, prompts on removals and keeps the last slot', async ({ page }) => {
  const owner = uniqueAccount('sched');
  await onboardedOwner(page, owner);
  await page.getByRole('link', { name: 'Availability' }).click();
  await expect(page.getByTestId('availability-summary')).toContainText('1 slot across 1 day · 8 hours per week');
  await expect(page.locator('.day-row', { hasText: 'Monday' })).toContainText('9:00 AM - 5:00 PM');
  await expect(page.locator('.day-row', { hasText: 'Tuesday' })).toContainText('Unavailable');

  // The modal takes focus, Escape closes it and focus returns to its button.
  const edit = page.getByRole('button', { name: 'Edit Schedule' });
  await edit.click();
  const modal = page.getByRole('dialog', { name: 'Edit Schedule' });
  await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(modal).toHaveCount(0);
  await expect(edit).toBeFocused();

  // the last slot cannot be removed; an empty time field is refused.
  await edit.click();
  await expect(modal.getByRole('button', { name: 'Remove slot 1' })).toBeDisabled();
  await modal.getByRole('button', { name: /Add Another Time Slot/ }).click();
  await modal.getByLabel('Day').nth(1).selectOption({ label: 'Tuesday' });
  await modal.getByLabel('Start').nth(1).fill('');
  await modal.getByRole('button', { name: 'Save Schedule' }).click();
  await expect(modal.getByRole('alert')).toHaveText('Please fill in all time fields');
  await modal.getByLabel('Start').nth(1).fill('13:00');
  await modal.getByLabel('End').nth(1).fill('17:30');
  await modal.getByRole('button', { name: 'Save Schedule' }).click();
  await expect(statusAlerts(page)).toHaveText('Availability updated successfully!');
  await expect(page.getByTestId('availability-summary')).toContainText('2 slots across 2 days · 12.5 hours per week');
  await expect(page.locator('.day-row', { hasText: 'Tuesday' })).toContainText('1:00 PM - 5:30 PM');

  // The page re-rendering under an open modal (here: the success alert closing) changes nothing:
  // adding a slot still saves at once, with no "removed" prompt.
  await edit.click();
  await expect(statusAlerts(page)).toHaveCount(0, { timeout: 10_000 });
  await modal.getByRole('button', { name: /Add Another Time Slot/ }).click();
  await modal.getByLabel('Day').nth(2).selectOption({ label: 'Thursday' });
  await modal.getByRole('button', { name: 'Save Schedule' }).click();
  await expect(page.getByRole('dialog', { name: /Remove/ })).toHaveCount(0);
  await expect(statusAlerts(page)).toHaveText('Availability updated successfully!');
  await expect(page.getByTestId('availability-summary')).toContainText('3 slots across 3 days');
  await edit.click();
  await modal.getByRole('button', { name: 'Remove slot 3' }).click();
  await modal.getByRole('button', { name: 'Save Schedule' }).click();
  await page.getByRole('dialog', { name: 'Remove time slots?' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('availability-summary')).toContainText('2 slots across 2 days · 12.5 hours per week');

  // removing some slots asks first; Cancel keeps the modal, Save applies.
  await edit.click();
  await modal.getByRole('button', { name: 'Remove slot 1' }).click();
  await modal.getByRole('button', { name: 'Save Schedule' }).click();
  const some = page.getByRole('dialog', { name: 'Remove time slots?' });
  await expect(some).toContainText('Some time slots were removed. Save the schedule without them?');
  await some.getByRole('button', { name: 'Cancel' }).click();
  await expect(some).toHaveCount(0);
  await modal.getByRole('button', { name: 'Save Schedule' }).click();
  await page.getByRole('dialog', { name: 'Remove time slots?' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('availability-summary')).toContainText('1 slot across 1 day');
  await expect(page.locator('.day-row', { hasText: 'Monday' })).toContainText('Unavailable');

  // removing every current slot (only a new one left) is a different prompt.
  await edit.click();
  await modal.getByRole('button', { name: /Add Another Time Slot/ }).click();
  await modal.getByLabel('Day').nth(1).selectOption({ label: 'Wednesday' });
  await modal.getByRole('button', { name: 'Remove slot 1' }).click();
  await expect(modal.getByRole('button', { name: 'Remove slot 1' })).toBeDisabled();
  await modal.getByRole('button', { name: 'Save Schedule' }).click();
  const all = page.getByRole('dialog', { name: 'Remove all current time slots?' });
  await expect(all).toContainText('You removed all of your current time slots. Save the schedule with only the new ones?');
  await all.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.day-row', { hasText: 'Wednesday' })).toContainText('9:00 AM - 5:00 PM');
  await expect(page.locator('.day-row', { hasText: 'Tuesday' })).toContainText('Unavailable');
});

const AREAS = ['/api/me/dashboard/stats', '/api/me/availability-rules', '/api/me/links', '/api/me/analytics/links'];

test('the four data areas preload once, in parallel; a blocked one spares the others (T-14, T-15, M-37)', async ({ page }) => {
  const owner = uniqueAccount('pre');
  await onboardedOwner(page, owner);
  // Onboarding ends with its own full reload: let it settle on a fresh load before counting.
  await page.goto('/app/dashboard');
  await expect(page.getByTestId('total-views')).toHaveText('0');

  // T-14: after authentication (a reload with the stored token) each area is requested once, and
  // all four are in flight together: each answer is held until the four requests have all arrived —
  // loading them one after another would leave the first held, which this records as a failure.
  const started = new Map<string, number>();
  let releaseAll!: () => void;
  const allArrived = new Promise<void>((r) => (releaseAll = r));
  let heldTogether = true;
  const isArea = (url: URL) => AREAS.includes(url.pathname);
  await page.route(isArea, async (route) => {
    const p = new URL(route.request().url()).pathname;
    started.set(p, (started.get(p) ?? 0) + 1);
    if (AREAS.every((a) => started.has(a))) releaseAll();
    const together = await Promise.race([allArrived.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 10_000))]);
    if (!together) heldTogether = false;
    await route.continue();
  });
  await page.reload();
  await expect(page.getByTestId('total-views')).toHaveText('0');
  await expect.poll(() => AREAS.every((p) => started.has(p))).toBe(true);
  await page.getByRole('link', { name: 'Links' }).click();
  await page.getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { name: 'No analytics data yet' })).toBeVisible();
  for (const p of AREAS) expect(started.get(p), p).toBe(1);
  expect(heldTogether).toBe(true);
  await page.unroute(isArea);

  // T-15 and M-37: /api/me/links blocked — the other three load and show; no message on screen.
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  const requested = new Map<string, number>();
  page.on('request', (r) => {
    const p = new URL(r.url()).pathname;
    if (AREAS.includes(p)) requested.set(p, (requested.get(p) ?? 0) + 1);
  });
  await page.route('**/api/me/links', (route) => route.abort('blockedbyclient'));
  await page.goto('/app/dashboard');
  await expect(page.getByTestId('total-views')).toHaveText('0');
  await expect(page.getByRole('heading', { name: 'Your week' })).toBeVisible();
  await expect.poll(() => errors.some((e) => e.includes('Preload failed'))).toBe(true);
  await expect(page.getByRole('alert')).toHaveCount(0);
  for (const p of ['/api/me/dashboard/stats', '/api/me/availability-rules', '/api/me/analytics/links']) expect(requested.get(p), p).toBe(1);
  await page.getByRole('link', { name: 'Analytics' }).click();
  await expect(page.getByRole('heading', { name: 'No analytics data yet' })).toBeVisible();
  expect(requested.get('/api/me/analytics/links')).toBe(1);
  // Links falls back to origin + username while /me/links is unavailable.
  await page.getByRole('link', { name: 'Links' }).click();
  await expect(page.getByTestId('public-link')).toHaveText(`${new URL(page.url()).origin}/${owner.username}`);
});
