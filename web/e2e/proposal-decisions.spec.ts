/**
 * Issue 24, end to end against the real server: the owner confirms a proposal in one step.
 * A visitor proposes a time on the public page; the owner confirms it on the dashboard (Confirmed,
 * and the public page no longer offers that time), declines another with a message, cancels the
 * confirmed one (the time is free again); a confirm of a time taken meanwhile shows the server's
 * 409 reason verbatim; an OFFLINE confirm shows as pending and becomes Confirmed back online; the
 * one-click link of the owner's e-mail works once, never on load, and says so the second time;
 * Settings → Confirmed meetings; 375 px and dark.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { nextWeekMonday, uniqueAccount, waitForMail, zonedDateTime } from './fixtures.ts';
import { axeViolations, onboardedOwner, saveScreenshot, WCAG_AA } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/screenshots';
const ZONE = 'Europe/Brussels';
const owner = uniqueAccount('dec');
const monday = nextWeekMonday(ZONE);
let ownerPage: Page;

/** 'Mon 30 Nov' of a plain date. */
function dayLabel(date: string): string {
  const t = new Date(`${date}T12:00:00Z`);
  return `${t.toLocaleDateString('en-US', { weekday: 'short', timeZone: 'UTC' })} ${t.getUTCDate()} ${t.toLocaleDateString('en-US', { month: 'short', timeZone: 'UTC' })}`;
}
const day = dayLabel(monday);

let ipSeq = 0;
/** A visitor's proposal through the public API (its own client address, so per-IP limits are per visitor). */
async function propose(page: Page, from: string, to: string, who: { name: string; email: string; note?: string }) {
  const res = await page.request.post(`/api/public/${owner.username}/proposals`, {
    headers: { 'X-Forwarded-For': `198.51.100.${120 + ipSeq++}` },
    data: { start: zonedDateTime(monday, from, ZONE), end: zonedDateTime(monday, to, ZONE), name: who.name, email: who.email, note: who.note ?? '', visitor_timezone: ZONE, language: 'en' },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/** Serious or critical axe findings (WCAG 2.1 A/AA) of the page. */
const axeFindings = (page: Page) => axeViolations(page, { tags: WCAG_AA, seriousOnly: true });

/** The public page's free-time buttons next Monday, as a visitor in Brussels sees them. */
async function publicMondayWindows(browser: Browser, baseURL: string | undefined): Promise<string[]> {
  const ctx = await browser.newContext({ baseURL, locale: 'en-GB', timezoneId: ZONE, extraHTTPHeaders: { 'X-Forwarded-For': `198.51.100.${120 + ipSeq++}` } });
  const page = await ctx.newPage();
  await page.goto(`/${owner.username}?date=${monday}`);
  await expect(page.getByRole('heading', { name: `${owner.name}'s Availability` })).toBeVisible();
  const names = await page.getByRole('button', { name: new RegExp(`^Free ${day}, `) }).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent ?? ''));
  await ctx.close();
  return [...new Set(names.map((n) => /(\d\d:\d\d–\d\d:\d\d)/.exec(n)?.[1] ?? n))];
}

const item = (page: Page, name: string) => page.getByRole('region', { name: 'Proposed times' }).getByTestId('proposal-item').filter({ hasText: name });

test.afterAll(async () => {
  await ownerPage?.context().close();
});

test('a visitor proposes on the public page; the owner confirms it in one step; the time is no longer offered', async ({ browser, baseURL }) => {
  test.setTimeout(150_000);
  ownerPage = await (await browser.newContext({ locale: 'en-GB', baseURL, timezoneId: ZONE })).newPage();
  await onboardedOwner(ownerPage, owner);

  // The visitor, in London, proposes 09:00–09:30 their time (10:00–10:30 Brussels).
  const ctx = await browser.newContext({ baseURL, locale: 'en-GB', timezoneId: 'Europe/London', extraHTTPHeaders: { 'X-Forwarded-For': '198.51.100.110' } });
  const v = await ctx.newPage();
  const posted: unknown[] = [];
  v.on('request', (r) => r.method() === 'POST' && r.url().includes('/proposals') && posted.push(r.postDataJSON()));
  await v.goto(`/${owner.username}?date=${monday}`);
  await v.getByRole('button', { name: `Free ${day}, 08:00–16:00 — propose a time` }).click();
  const dialog = v.getByRole('dialog', { name: 'Propose a time' });
  await dialog.getByLabel('Start time').selectOption({ label: '09:00' });
  await dialog.getByLabel('Your name').fill('Vera Visitor');
  await dialog.getByLabel('Your email').fill('vera.decisions@example.org');
  await dialog.getByLabel('Note (optional)').fill('Intro call');
  await dialog.getByRole('button', { name: 'Send proposal' }).click();
  await expect(dialog.getByRole('status')).toContainText('Your proposal was sent.');
  // The page's language goes with it (the visitor's later e-mails are written in it).
  expect(posted).toEqual([expect.objectContaining({ language: 'en', visitor_timezone: 'Europe/London' })]);
  await ctx.close();

  const page = ownerPage;
  await page.goto('/app/dashboard');
  const vera = item(page, 'Vera Visitor');
  await expect(vera).toContainText(`${day}, 10:00–10:30`);
  await expect(vera).toContainText(`${day}, 09:00–09:30 their time (Europe/London)`);
  await expect(vera).toContainText('vera.decisions@example.org');
  await expect(vera).toContainText('Intro call');
  await expect(vera.locator('.proposal-status')).toHaveText('Pending');
  await saveScreenshot(page, { path: `${SHOTS}/proposal-decisions-pending-1280.png`, fullPage: true });

  await vera.getByRole('button', { name: 'Confirm the proposal from Vera Visitor' }).click();
  await expect(vera.locator('.proposal-status')).toHaveText('Confirmed');
  // No calendar is connected: the meeting went to the owner as an .ics.
  await expect(vera).toContainText('Not added to a calendar');
  await expect(vera.getByRole('button', { name: /^Cancel the meeting/ })).toBeVisible();
  await expect(vera.getByRole('button', { name: /^Confirm/ })).toHaveCount(0);
  // After a reload (from the device database) it is still Confirmed.
  await page.reload();
  await expect(vera.locator('.proposal-status')).toHaveText('Confirmed');

  // The public page no longer offers 10:00–10:30.
  await expect.poll(() => publicMondayWindows(browser, baseURL), { timeout: 20_000 }).toEqual(['09:00–10:00', '10:30–17:00']);
});

test('the owner declines another proposal with a message', async () => {
  const page = ownerPage;
  await propose(page, '14:00', '14:30', { name: 'Dana Decline', email: 'dana.decisions@example.org' });
  await page.goto('/app/dashboard');
  const dana = item(page, 'Dana Decline');
  await expect(dana.locator('.proposal-status')).toHaveText('Pending', { timeout: 20_000 });
  await dana.getByRole('button', { name: 'Decline the proposal from Dana Decline' }).click();
  const dialog = page.getByRole('dialog', { name: 'Decline proposal' });
  await expect(dialog).toContainText(`${day}, 14:00–14:30`);
  const message = dialog.getByLabel('Message to Dana Decline (optional)');
  await message.fill('x'.repeat(1001));
  await expect(dialog.getByText('Message must be no more than 1000 characters')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Decline', exact: true })).toBeDisabled();
  await message.fill('Sorry, I am away that afternoon.');
  await expect(dialog.getByText('32/1000')).toBeVisible();
  await dialog.getByRole('button', { name: 'Decline', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(dana.locator('.proposal-status')).toHaveText('Declined');
  await expect(dana).toContainText('Your message: Sorry, I am away that afternoon.');
  await expect(dana.getByRole('button', { name: /^(Confirm|Decline)/ })).toHaveCount(0);
});

test('the owner cancels the confirmed meeting; the time is free again', async ({ browser, baseURL }) => {
  const page = ownerPage;
  await page.goto('/app/dashboard');
  const vera = item(page, 'Vera Visitor');
  await vera.getByRole('button', { name: 'Cancel the meeting with Vera Visitor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel meeting' });
  await dialog.getByLabel('Message to Vera Visitor (optional)').fill('Something came up, sorry.');
  await dialog.getByRole('button', { name: 'Cancel meeting' }).click();
  await expect(vera.locator('.proposal-status')).toHaveText('Cancelled');
  await expect(vera).toContainText('Your message: Something came up, sorry.');
  await expect.poll(() => publicMondayWindows(browser, baseURL), { timeout: 20_000 }).toEqual(['09:00–17:00']);
});

test('a time taken meanwhile: the confirm shows the server\'s 409 reason next to the proposal', async () => {
  const page = ownerPage;
  await propose(page, '11:00', '11:30', { name: 'First Fred', email: 'fred.decisions@example.org' });
  await propose(page, '11:00', '11:30', { name: 'Second Sam', email: 'sam.decisions@example.org' });
  await page.goto('/app/dashboard');
  await expect(item(page, 'Second Sam')).toHaveCount(1, { timeout: 20_000 });
  const isConfirm = (r: { url(): string; request(): { method(): string } }) => r.url().includes('/confirm') && r.request().method() === 'POST';
  // Fred's answer first (the device may show Confirmed from the replication stream before it).
  const fredAnswer = page.waitForResponse(isConfirm);
  await item(page, 'First Fred').getByRole('button', { name: /^Confirm/ }).click();
  expect((await fredAnswer).status()).toBe(200);
  await expect(item(page, 'First Fred').locator('.proposal-status')).toHaveText('Confirmed');
  const answer = page.waitForResponse(isConfirm);
  await item(page, 'Second Sam').getByRole('button', { name: /^Confirm/ }).click();
  const res = await answer;
  expect(res.status()).toBe(409);
  const { error } = (await res.json()) as { error: string };
  expect(error).toBeTruthy();
  await expect(item(page, 'Second Sam').getByRole('alert')).toHaveText(error);
  await expect(item(page, 'Second Sam').locator('.proposal-status')).toHaveText('Pending');
});

test('offline: a confirm is saved on the device, shows as pending, and is carried out back online', async () => {
  test.setTimeout(120_000);
  const page = ownerPage;
  await propose(page, '15:00', '15:30', { name: 'Otto Offline', email: 'otto.decisions@example.org' });
  await page.goto('/app/dashboard');
  const otto = item(page, 'Otto Offline');
  await expect(otto.locator('.proposal-status')).toHaveText('Pending', { timeout: 20_000 });
  const status = page.getByTestId('sync-status');
  await expect(status).toHaveText('Online', { timeout: 30_000 });

  await page.context().setOffline(true);
  await expect(status).toHaveText('Offline');
  await otto.getByRole('button', { name: 'Confirm the proposal from Otto Offline' }).click();
  await expect(otto.getByRole('status')).toHaveText('Confirmation pending sync — saved on this device; it is sent when the server is reachable.');
  await expect(otto.locator('.proposal-status')).toHaveText('Pending');
  await expect(otto.getByRole('button', { name: /^(Confirm|Decline)/ })).toHaveCount(0);
  await saveScreenshot(page, { path: `${SHOTS}/proposal-decisions-offline-1280.png`, fullPage: true });

  await page.context().setOffline(false);
  await expect(otto.locator('.proposal-status')).toHaveText('Confirmed', { timeout: 45_000 });
  await expect(otto.getByText(/pending sync/)).toHaveCount(0);
  await expect(status).toHaveText('Online', { timeout: 30_000 });
});

test('the one-click link of the owner\'s e-mail: shown first, acts once on its button, then says it was used', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const since = Date.now() - 1000;
  await propose(ownerPage, '16:00', '16:30', { name: 'Lina Link', email: 'lina.decisions@example.org', note: 'About the offsite' });
  // The newest mail to the owner since: the proposal's (its subject's time may be an encoded word).
  const mail = await waitForMail(owner.email, /./, { since });
  expect(mail.text).toContain('Lina Link');
  const links = [...new Set(mail.text.match(/https?:\/\/[^\s"'<>]+\/proposal#t=[^\s"'<>]+/g) ?? [])].map((l) => l.replace(/&amp;/g, '&'));
  expect(links.length).toBeGreaterThanOrEqual(2);

  // No sign-in: a fresh context, like the owner's phone. Neither link acts when it is opened.
  const ctx = await browser.newContext({ baseURL, locale: 'en-GB', timezoneId: ZONE, viewport: { width: 375, height: 812 } });
  const page = await ctx.newPage();
  const acts: string[] = [];
  page.on('request', (r) => r.url().includes('/proposal-links/act') && acts.push(r.url()));
  let confirmLink: string | null = null;
  for (const link of links) {
    await page.goto(link);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(/^(Confirm this meeting\?|Decline this proposal\?)$/);
    if ((await heading.textContent()) === 'Confirm this meeting?') confirmLink = link;
  }
  expect(acts).toEqual([]);
  expect(confirmLink).not.toBeNull();
  // The token stays in the fragment: the page's own request never carries it in its address.
  expect(new URL(confirmLink!).search).toBe('');

  await page.goto(confirmLink!);
  const card = page.getByRole('main');
  await expect(card).toContainText('Lina Link');
  await expect(card).toContainText(`${day}, 16:00–16:30`);
  await expect(card).toContainText('About the offsite');
  await expect(card.getByRole('button')).toHaveCount(1);
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await saveScreenshot(page, { path: `${SHOTS}/proposal-link-375.png`, fullPage: true });
  expect(await axeFindings(page)).toEqual([]);
  await card.getByRole('button', { name: 'Confirm meeting' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Meeting confirmed');
  await expect(card.getByRole('status')).toHaveText('Lina Link gets an invitation by e-mail.');
  expect(acts).toHaveLength(1);

  // The second use: the server's words (410 used).
  const inspect = page.waitForResponse((r) => r.url().includes('/proposal-links/inspect'));
  await page.goto('/');
  await page.goto(confirmLink!);
  const res = await inspect;
  expect(res.status()).toBe(410);
  const { error } = (await res.json()) as { error: string };
  await expect(card.getByRole('alert')).toHaveText(error);
  await expect(card.getByRole('button')).toHaveCount(0);

  // A forged link: not valid. Wide and dark.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/proposal#t=forged.token');
  await expect(card.getByRole('alert')).toHaveText('This link is not valid.');
  await saveScreenshot(page, { path: `${SHOTS}/proposal-link-invalid-1280-dark.png`, fullPage: true });
  expect(await axeFindings(page)).toEqual([]);
  await page.goto('/proposal');
  await expect(card.getByRole('alert')).toHaveText('This link is not valid.');
  await ctx.close();

  // The owner's dashboard shows the confirmed meeting.
  await ownerPage.goto('/app/dashboard');
  await expect(item(ownerPage, 'Lina Link').locator('.proposal-status')).toHaveText('Confirmed', { timeout: 20_000 });
});

test('Settings → Confirmed meetings: without a writable calendar the meeting is e-mailed as an .ics', async () => {
  const page = ownerPage;
  await page.goto('/app/settings');
  const section = page.getByRole('region', { name: 'Confirmed meetings' });
  const select = section.getByLabel('Add confirmed meetings to');
  await expect(select).toBeVisible();
  await expect(select.locator('option:checked')).toHaveText('Default — e-mail me an .ics file');
  await expect(section).toContainText('Confirmed meetings are e-mailed to you as an .ics file.');
});

test('at 375 px the proposals fit the screen, light and dark', async () => {
  const page = ownerPage;
  await page.setViewportSize({ width: 375, height: 812 });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.goto('/app/dashboard#proposals');
    const card = page.getByRole('region', { name: 'Proposed times' });
    await expect(card.getByTestId('proposal-item').first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The list may still be redrawing after the first item shows: wait for this button itself.
    const confirm = item(page, 'Second Sam').getByRole('button', { name: /^Confirm/ });
    await expect(confirm).toBeVisible();
    // Its right edge, read again while the list redraws (a box of a replaced node is null).
    await expect.poll(async () => ((box) => (box ? box.x + box.width : Number.POSITIVE_INFINITY))(await confirm.boundingBox())).toBeLessThanOrEqual(375);
    await saveScreenshot(page, { path: `${SHOTS}/proposal-decisions-375-${colorScheme}.png`, fullPage: true });
    expect(await axeViolations(page, { include: '.proposals-card', tags: WCAG_AA, seriousOnly: true })).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
});

test('an offline confirm the server refuses comes back with its reason', async () => {
  test.setTimeout(120_000);
  const page = ownerPage;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/app/dashboard');
  // Second Sam's 11:00–11:30 is First Fred's confirmed meeting by now.
  const sam = item(page, 'Second Sam');
  await expect(sam.locator('.proposal-status')).toHaveText('Pending');
  const status = page.getByTestId('sync-status');
  await expect(status).toHaveText('Online', { timeout: 30_000 });
  await page.context().setOffline(true);
  await expect(status).toHaveText('Offline');
  await sam.getByRole('button', { name: 'Confirm the proposal from Second Sam' }).click();
  await expect(sam.getByRole('status')).toContainText('Confirmation pending sync');
  await page.context().setOffline(false);
  // The server's answer replicates back: still pending, with the reason, and Confirm offered again.
  await expect(sam.getByRole('alert')).not.toBeEmpty({ timeout: 45_000 });
  await expect(sam.getByText(/pending sync/)).toHaveCount(0);
  await expect(sam.locator('.proposal-status')).toHaveText('Pending');
  await expect(sam.getByRole('button', { name: 'Confirm the proposal from Second Sam' })).toBeVisible();
});

test('Settings → Confirmed meetings: a calendar is chosen and saved; a refused one shows the server\'s reason', async () => {
  const page = ownerPage;
  const work = { connection_id: 'c-1', connection_name: 'Google · olivia@example.com', provider: 'google', calendar_id: 'work@group', calendar_name: 'Work' };
  const home = { ...work, calendar_id: 'home@group', calendar_name: 'Home' };
  const puts: unknown[] = [];
  // The owner has no calendar in this run: the server's answers are stood in for.
  await page.route('**/api/me/proposal-settings', async (route) => {
    if (route.request().method() === 'GET') return route.fulfill({ json: { target: null, effective: work, calendars: [work, home] } });
    const body = route.request().postDataJSON() as { target: { calendar_id: string } | null };
    puts.push(body);
    if (body.target?.calendar_id === 'home@group') return route.fulfill({ status: 422, json: { error: 'Validation failed', errors: { target: 'This calendar cannot be written to' } } });
    return route.fulfill({ json: { target: body.target, effective: work, calendars: [work, home] } });
  });
  await page.goto('/app/settings');
  const section = page.getByRole('region', { name: 'Confirmed meetings' });
  const select = section.getByLabel('Add confirmed meetings to');
  await expect(select.locator('option')).toHaveText(['Default — Work (Google · olivia@example.com)', 'Work (Google · olivia@example.com)', 'Home (Google · olivia@example.com)']);
  await expect(section).toContainText('Next confirmed meeting goes to Work (Google · olivia@example.com).');
  await select.selectOption({ label: 'Work (Google · olivia@example.com)' });
  await expect(section.getByRole('status')).toContainText('Saved.');
  await select.selectOption({ label: 'Home (Google · olivia@example.com)' });
  await expect(section.getByRole('alert')).toHaveText('This calendar cannot be written to');
  await expect(select.locator('option:checked')).toHaveText('Work (Google · olivia@example.com)');
  expect(puts).toEqual([{ target: { connection_id: 'c-1', calendar_id: 'work@group' } }, { target: { connection_id: 'c-1', calendar_id: 'home@group' } }]);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
