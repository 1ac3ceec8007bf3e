/**
 * Issue 4, end to end against the real server: a visitor (no account, own browser context) proposes
 * a time on the public page — keyboard only, and again at 375 px — the owner gets the e-mail with
 * Reply-To the visitor, and sees and dismisses the proposal on the dashboard. Nothing is booked, and
 * the visitor never sees the owner's address. Error answers (not_free, 429, network) are routed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { nextWeekMonday, uniqueAccount } from './fixtures.ts';
import { axeViolations, onboardedOwner, saveScreenshot, WCAG_AA } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/screenshots';
const owner = uniqueAccount('prop');
const visitor = { name: 'Vera Visitor', email: `vera.${Date.now().toString(36)}@example.org`, note: 'Quick intro call about the Q1 project.' };
let ownerPage: Page;

/** 'Mon 30 Nov' of a plain date. */
function dayLabel(date: string): string {
  const t = new Date(`${date}T12:00:00Z`);
  return `${t.toLocaleDateString('en-US', { weekday: 'short', timeZone: 'UTC' })} ${t.getUTCDate()} ${t.toLocaleDateString('en-US', { month: 'short', timeZone: 'UTC' })}`;
}

let ipSeq = 0;
/** A visitor's own context: no token; a distinct client address (the server trusts its loopback proxy) so the per-IP limit is per visitor. */
async function visitorPage(browser: Browser, baseURL: string | undefined, opts: { timezoneId: string; width?: number }) {
  const ctx = await browser.newContext({
    baseURL,
    timezoneId: opts.timezoneId,
    locale: 'en-GB',
    viewport: opts.width === 375 ? { width: 375, height: 812 } : { width: 1280, height: 800 },
    extraHTTPHeaders: { 'X-Forwarded-For': `198.51.100.${10 + ipSeq++}` },
  });
  const page = await ctx.newPage();
  const bodies: Promise<string>[] = [];
  page.on('response', (res) => bodies.push(res.body().then((b) => b.toString('utf8')).catch(() => '')));
  return { ctx, page, bodies };
}

/** Captured mail to `to` whose raw text matches `marker`, decoded (quoted-printable, encoded words). */
async function waitForMail(to: string, marker: string, timeoutMs = 20_000): Promise<{ headers: string; body: string }> {
  const dir = process.env.E2E_MAIL_DIR!;
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    for (const f of readdirSync(dir)) {
      const raw = readFileSync(path.join(dir, f), 'utf8');
      const split = raw.indexOf('\r\n\r\n');
      const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
      if (!new RegExp(`^To:.*${to.replace(/[.+]/g, '\\$&')}`, 'im').test(headers)) continue;
      const body = decodeQp(raw.slice(split));
      if (body.includes(marker)) return { headers: decodeWords(headers), body };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No mail to ${to} containing ${marker} within ${timeoutMs} ms`);
}
function decodeQp(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/(?:=[0-9A-F]{2})+/g, (m) => Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8'));
}
function decodeWords(s: string): string {
  return s.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, enc: string, text: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQp(text.replace(/_/g, ' ')),
  );
}

test.afterAll(async () => {
  await ownerPage?.context().close();
});

test('the owner starts with an empty Proposed times card', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  // The owner's own context, kept for the later tests of this file.
  const page = await (await browser.newContext({ locale: 'en-GB', baseURL, timezoneId: 'Europe/Brussels' })).newPage();
  await onboardedOwner(page, owner);
  const card = page.getByRole('region', { name: 'Proposed times' });
  await expect(card.getByText('No proposals yet. When visitors propose a time on your public page, it shows up here.')).toBeVisible();
  ownerPage = page;
});

test('a visitor proposes a time with the keyboard; the owner is e-mailed with Reply-To the visitor', async ({ browser, baseURL }) => {
  const { ctx, page, bodies } = await visitorPage(browser, baseURL, { timezoneId: 'Europe/London' });
  // Next week by its address: the page opens on the first week with free time, and the owner is
  // free on Mondays only, so from Tuesday on that is already next week.
  const monday = nextWeekMonday('Europe/Brussels');
  await page.goto(`/${owner.username}?date=${monday}`);
  await expect(page.getByRole('heading', { name: `${owner.name}'s Availability` })).toBeVisible();
  await expect(page.getByText('Pick a time that works for you and propose it. Nothing is booked until it is confirmed by email.')).toBeVisible();
  const day = dayLabel(monday);
  // The owner's Monday 09:00–17:00 Brussels reads 08:00–16:00 in London.
  const slot = page.getByRole('button', { name: `Free ${day}, 08:00–16:00 — propose a time` });
  await expect(slot).toBeVisible();

  // Keyboard only from here.
  await slot.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Propose a time' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`Free ${day}, 08:00–16:00 (Europe/London time).`);
  await expect(dialog).toContainText('Nothing is booked until it is confirmed.');
  const name = dialog.getByLabel('Your name');
  const email = dialog.getByLabel('Your email');
  // Focus starts on the first field, the start time: 08:00 → 09:00, then 45 minutes.
  const startSelect = dialog.getByLabel('Start time');
  await expect(startSelect).toBeFocused();
  await expect(startSelect.locator('option:checked')).toHaveText('08:00');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  await expect(startSelect.locator('option:checked')).toHaveText('09:00');
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Duration')).toBeFocused();
  await expect(dialog.getByLabel('Duration').locator('option')).toHaveText(['15 min', '30 min', '45 min', '1 hour', '1.5 hours']);
  await expect(dialog.getByLabel('Duration').locator('option:checked')).toHaveText('30 min');
  await page.keyboard.press('ArrowDown');
  await expect(dialog.getByLabel('Duration').locator('option:checked')).toHaveText('45 min');
  await expect(dialog).toContainText(`Your proposal: ${day}, 09:00–09:45`);
  await page.keyboard.press('Tab');
  await expect(name).toBeFocused();
  // Empty form: the client's messages, nothing sent.
  const posts: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await expect(dialog.getByText('Email is required')).toBeVisible();
  await expect(name).toBeFocused();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.type(visitor.name);
  await expect(dialog.getByText('Name is required')).toHaveCount(0);
  await page.keyboard.press('Tab');
  await expect(email).toBeFocused();
  await page.keyboard.type('vera-at-example');
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('Email is invalid')).toBeVisible();
  await expect(email).toBeFocused();
  expect(posts).toEqual([]);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(visitor.email);
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Note (optional)')).toBeFocused();
  await page.keyboard.type(visitor.note);
  await expect(dialog.getByText(`${visitor.note.length}/1000`)).toBeVisible();

  // Hold the real request a moment to see 'Sending...'.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/public/*/proposals', async (route) => {
    await held;
    await route.continue();
  });
  const send = dialog.getByRole('button', { name: 'Send proposal' });
  for (let i = 0; i < 8 && !(await send.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(send).toBeFocused();
  await saveScreenshot(page, { path: `${SHOTS}/propose-dialog-1280.png`, fullPage: true });
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Sending...' })).toBeDisabled();
  release();
  const success = dialog.getByRole('status');
  await expect(success).toContainText(`Your proposal was sent. ${owner.name} will confirm by email.`);
  const close = dialog.getByRole('button', { name: 'Close', exact: true });
  await expect(close).toBeFocused();
  await saveScreenshot(page, { path: `${SHOTS}/propose-success-1280.png`, fullPage: true });
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(slot).toBeFocused();
  // Nothing was reserved: after a reload the window is still free as a whole.
  await page.reload(); // the address keeps next week's date
  await expect(slot).toBeVisible();

  // The visitor never sees the owner's address: not on the page, not in any answer.
  expect(await page.content()).not.toContain(owner.email);
  for (const b of await Promise.all(bodies)) expect(b).not.toContain(owner.email);
  await ctx.close();

  // The owner's e-mail: To the owner, Reply-To the visitor, the time in both zones, the note.
  const mail = await waitForMail(owner.email, visitor.note);
  expect(mail.headers).toMatch(new RegExp(`^Reply-To:.*${visitor.email.replace(/\./g, '\\.')}`, 'im'));
  expect(mail.headers).toMatch(new RegExp(`^Subject: New time proposed: ${day}, 10:00–10:45`, 'im'));
  expect(mail.body).toContain(visitor.name);
  expect(mail.body).toMatch(/10:00.{1,3}10:45/);
  expect(mail.body).toMatch(/09:00.{1,3}09:45/);
});

test('server answers: no longer free refetches the windows; too many proposals; no connection', async ({ browser, baseURL }) => {
  const { ctx, page } = await visitorPage(browser, baseURL, { timezoneId: 'Europe/Brussels' });
  let availabilityCalls = 0;
  page.on('request', (r) => r.url().includes('/availability') && availabilityCalls++);
  await page.goto(`/${owner.username}?date=${nextWeekMonday('Europe/Brussels')}`);
  const slot = page.getByRole('button', { name: /^Free Mon \d+ \w+, 09:00–17:00 / });
  const dialog = page.getByRole('dialog', { name: 'Propose a time' });
  // The page is server-rendered: a click that lands before hydration opens nothing — click again.
  await expect(async () => {
    await slot.click();
    await expect(dialog).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await dialog.getByLabel('Your name').fill('Nico Late');
  await dialog.getByLabel('Your email').fill('nico@example.org');

  const answers = [
    { status: 422, json: { error: 'That time is no longer free. Please pick another time.', code: 'not_free' } },
    { status: 429, json: { error: 'Too many proposals. Please try again later.', code: 'rate_limited' } },
  ];
  await page.route('**/api/public/*/proposals', (route) => {
    const a = answers.shift();
    return a ? route.fulfill(a) : route.abort('internetdisconnected');
  });
  const before = availabilityCalls;
  await dialog.getByRole('button', { name: 'Send proposal' }).click();
  await expect(dialog.getByRole('alert')).toContainText('That time is no longer free. Please pick another time.');
  await expect.poll(() => availabilityCalls).toBeGreaterThan(before);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Send proposal' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Too many proposals. Please try again later.');
  await dialog.getByRole('button', { name: 'Send proposal' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Unable to connect. Please check your internet connection and try again.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(slot).toBeFocused();
  await ctx.close();
});

test('at 375 px a visitor proposes from the chosen day\'s buttons; the dialog fits the screen', async ({ browser, baseURL }) => {
  const { ctx, page } = await visitorPage(browser, baseURL, { timezoneId: 'Europe/Brussels', width: 375 });
  const monday = nextWeekMonday('Europe/Brussels');
  await page.goto(`/${owner.username}?date=${monday}`);
  const day = dayLabel(monday);
  // A phone: the day strip with the address's Monday chosen, its free time as a large button.
  await expect(page.getByRole('group', { name: 'Days of the week' })).toBeVisible();
  const fromList = page.getByTestId('day-buttons').getByRole('button', { name: `Free ${day}, 09:00–17:00 — propose a time` });
  await expect(fromList).toBeVisible();
  await saveScreenshot(page, { path: `${SHOTS}/public-page-week-live-375.png`, fullPage: true });
  const dialog = page.getByRole('dialog', { name: 'Propose a time' });
  await expect(async () => {
    await fromList.click(); // again if it landed before hydration
    await expect(dialog).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  await dialog.getByLabel('Start time').selectOption({ label: '14:00' });
  await expect(dialog.getByLabel('Duration').locator('option:checked')).toHaveText('30 min');
  await dialog.getByLabel('Your name').fill('Mo Mobile');
  await dialog.getByLabel('Your email').fill('mo.mobile@example.org');
  await saveScreenshot(page, { path: `${SHOTS}/propose-dialog-375.png` });
  await dialog.getByRole('button', { name: 'Send proposal' }).click();
  await expect(dialog.getByRole('status')).toContainText(`Your proposal was sent. ${owner.name} will confirm by email.`);
  await saveScreenshot(page, { path: `${SHOTS}/propose-success-375.png` });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(fromList).toBeFocused();
  await ctx.close();
});

test('the owner sees the proposals on the dashboard, replies by e-mail and dismisses one', async () => {
  const page = ownerPage;
  await page.goto('/app/dashboard');
  const card = page.getByRole('region', { name: 'Proposed times' });
  const items = card.getByTestId('proposal-item');
  await expect(items).toHaveCount(2);
  const day = dayLabel(nextWeekMonday('Europe/Brussels'));
  // Newest first (issue 24), in the owner's zone (Brussels): Mo Mobile's 14:00–14:30, then Vera's
  // 10:00–10:45 (proposed as 09:00 London, shown beside it in her zone).
  await expect(items.nth(0)).toContainText(`${day}, 14:00–14:30`);
  await expect(items.nth(0)).toContainText('Mo Mobile');
  await expect(items.nth(1)).toContainText(`${day}, 10:00–10:45`);
  await expect(items.nth(1)).toContainText(`${day}, 09:00–09:45 their time (Europe/London)`);
  await expect(items.nth(1)).toContainText(visitor.name);
  await expect(items.nth(1)).toContainText(visitor.note);
  await expect(items.nth(1).locator('.proposal-status')).toHaveText('Pending');
  const reply = items.nth(1).getByRole('link', { name: `Reply to ${visitor.name} by email` });
  await expect(reply).toHaveText('Reply');
  const href = (await reply.getAttribute('href'))!;
  expect(href.startsWith(`mailto:${visitor.email}?subject=`)).toBe(true);
  expect(decodeURIComponent(href.split('subject=')[1])).toContain(`${day}, 10:00–10:45`);
  await saveScreenshot(page, { path: `${SHOTS}/proposals-card-1280.png`, fullPage: true });
  expect(await axeViolations(page, { include: '.proposals-card', tags: WCAG_AA, seriousOnly: true })).toEqual([]);

  // A failed dismiss puts the proposal back and says so.
  await page.route('**/api/me/proposals/*', (route) => (route.request().method() === 'DELETE' ? route.fulfill({ status: 500, json: {} }) : route.continue()));
  await items.nth(0).getByRole('button', { name: 'Dismiss' }).click();
  await expect(card.getByRole('alert')).toHaveText(/Failed to dismiss the proposal. Please try again./);
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('Mo Mobile');
  await page.unrouteAll({ behavior: 'ignoreErrors' });

  // Dismiss for real: gone at once and after a reload.
  await items.nth(0).getByRole('button', { name: 'Dismiss the proposal from Mo Mobile' }).click();
  await expect(items).toHaveCount(1);
  await page.reload();
  await expect(items).toHaveCount(1);
  await expect(items.nth(0)).toContainText(visitor.name);

  await page.setViewportSize({ width: 375, height: 812 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(card).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await saveScreenshot(page, { path: `${SHOTS}/proposals-card-375.png`, fullPage: true });
});

test('the card is live: a new proposal shows without a reload (the device database replicates it)', async ({ baseURL }) => {
  const page = ownerPage;
  await page.goto('/app/dashboard');
  const items = page.getByRole('region', { name: 'Proposed times' }).getByTestId('proposal-item');
  await expect(items).toHaveCount(1);
  const monday = nextWeekMonday('Europe/Brussels');
  const res = await page.request.post(`${baseURL}/api/public/${owner.username}/proposals`, {
    headers: { 'X-Forwarded-For': '198.51.100.90' },
    data: { start: `${monday}T14:00:00Z`, end: `${monday}T14:30:00Z`, name: 'Late Larry', email: 'larry@example.org', visitor_timezone: 'Europe/Brussels' },
  });
  expect(res.status(), await res.text()).toBe(201);
  await expect(items).toHaveCount(2, { timeout: 20_000 });
  await expect(items.nth(0)).toContainText('Late Larry');
});
