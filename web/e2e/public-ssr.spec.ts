/**
 * Issue 11, P3: the public page `/{username}` is server-rendered and light.
 * - With JavaScript off, the HTML alone shows the owner's name and this week's free windows.
 * - With JavaScript on it hydrates into the same page without errors, then follows the visitor's
 *   zone; the page as before is covered by public-page, proposals and accessibility specs.
 * - The JavaScript it loads (page load, and after opening the propose dialog) stays ≤ 70 KB gzipped.
 */
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

const BUDGET = 70 * 1024;
const owner = uniqueAccount('ssr');
let ipSeq = 0;
const visitorHeaders = () => ({ 'X-Forwarded-For': `203.0.113.${10 + ipSeq++}` });

test('set up an owner free every day of the week', async ({ page }) => {
  await onboardedOwner(page, owner);
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const rules = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_time_local: '00:00', end_time_local: '23:45' }));
  const res = await page.request.post('/api/me/availability-rules', { headers: { Authorization: `Bearer ${token}` }, data: { rules } });
  expect(res.ok()).toBe(true);
});

test("with JavaScript off the page shows the owner's name and this week's free windows", async ({ browser, baseURL }) => {
  const ctx = await browser.newContext({ locale: 'en-GB', baseURL, javaScriptEnabled: false, timezoneId: 'Europe/Brussels', extraHTTPHeaders: visitorHeaders() });
  const page = await ctx.newPage();
  const res = await page.goto(`/${owner.username}`);
  expect(res!.status()).toBe(200);
  expect(res!.headers()['x-robots-tag']).toBe('noindex');
  expect(res!.headers()['referrer-policy']).toBe('no-referrer');
  expect(res!.headers()['cache-control']).toBe('no-cache');
  await expect(page.getByRole('heading', { name: `${owner.name}'s Availability` })).toBeVisible();
  await expect(page).toHaveTitle(`${owner.name}'s Availability · Avail`);
  await expect(page.getByRole('group', { name: 'Week of free times' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Free \w{3} \d+ \w{3}, \d\d:\d\d–\d\d:\d\d — propose a time$/ }).first()).toBeVisible();
  await expect(page.getByLabel('Times shown in')).toHaveValue('Europe/Brussels');
  // The data for hydration is JSON, not a script that runs.
  const html = await res!.text();
  expect(html).toMatch(/<script type="application\/json" id="avail-public-data">/);
  await ctx.close();

  // /u/{username} too; an unknown name answers 404 with the "could not be found" page.
  const js = await browser.newContext({ locale: 'en-GB', baseURL, timezoneId: 'Europe/Brussels', extraHTTPHeaders: visitorHeaders() });
  const p2 = await js.newPage();
  await p2.goto(`/u/${owner.username}`);
  await expect(p2.getByRole('heading', { name: `${owner.name}'s Availability` })).toBeVisible();
  await p2.goto('/nobody-ssr-here-1');
  await expect(p2.getByText('This availability link could not be found.')).toBeVisible();
  await js.close();
});

/** Console errors and warnings of a page (React/Preact report hydration mismatches there). */
function consoleProblems(page: Page): string[] {
  const out: string[] = [];
  page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && out.push(m.text()));
  page.on('pageerror', (e) => out.push(e.message));
  return out;
}

test('hydrates the server markup in place, then shows the visitor their own zone', async ({ browser, baseURL }) => {
  const ctx = await browser.newContext({ locale: 'en-GB', baseURL, timezoneId: 'Europe/Brussels', extraHTTPHeaders: visitorHeaders() });
  const page = await ctx.newPage();
  const problems = consoleProblems(page);
  const apiCalls: string[] = [];
  page.on('request', (r) => r.url().includes('/api/public/') && apiCalls.push(r.url()));
  await page.goto(`/${owner.username}`);
  const heading = page.getByRole('heading', { name: `${owner.name}'s Availability` });
  await expect(heading).toBeVisible();
  // Mark the server's heading element: hydration keeps it (a client re-render from scratch would replace it).
  await heading.evaluate((el) => el.setAttribute('data-ssr-mark', '1'));
  await page.waitForLoadState('networkidle');
  await expect(page.locator('h1[data-ssr-mark="1"]')).toHaveCount(1);
  await expect(page.getByText('Loading availability...')).toHaveCount(0);
  // Same zone as the owner: the server's answer stays on screen and is refreshed quietly, once.
  expect(apiCalls).toHaveLength(1);
  expect(new URL(apiCalls[0]).searchParams.get('tz')).toBe('Europe/Brussels');
  // Hydrated: the page reacts (week → month).
  await page.getByRole('button', { name: 'Month', exact: true }).click();
  await expect(page.getByRole('group', { name: 'Month of free times' })).toBeVisible();
  expect(problems).toEqual([]);
  await ctx.close();

  // A visitor in New York: rendered in the owner's zone by the server, then switched to theirs.
  const ny = await browser.newContext({ locale: 'en-GB', baseURL, timezoneId: 'America/New_York', extraHTTPHeaders: visitorHeaders() });
  const p2 = await ny.newPage();
  const nyProblems = consoleProblems(p2);
  await p2.goto(`/${owner.username}`);
  await expect(p2.getByLabel('Times shown in')).toHaveValue('America/New_York');
  await expect(p2.getByRole('group', { name: 'Week of free times' })).toBeVisible();
  await expect(p2.getByText('The host is based in Europe/Brussels. All times are shown in America/New York.')).toBeVisible();
  expect(nyProblems).toEqual([]);
  await ny.close();
});

test('the public page loads at most 70 KB of gzipped JavaScript, the propose dialog included', async ({ browser, baseURL }) => {
  const ctx = await browser.newContext({ locale: 'en-GB', baseURL, timezoneId: 'Europe/Brussels', extraHTTPHeaders: visitorHeaders() });
  const page = await ctx.newPage();
  const scripts = new Map<string, Promise<number>>();
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    scripts.set(new URL(res.url()).pathname, res.body().then((b) => gzipSync(b, { level: 9 }).length));
  });
  await page.goto(`/${owner.username}`);
  await expect(page.getByRole('heading', { name: `${owner.name}'s Availability` })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const total = async () => (await Promise.all(scripts.values())).reduce((a, b) => a + b, 0);
  const onLoad = await total();
  // Open the propose dialog and count again (nothing more may load).
  await page.getByRole('button', { name: /^Free .* — propose a time$/ }).first().click();
  await expect(page.getByRole('dialog', { name: 'Propose a time' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const withDialog = await total();
  console.log(`public page JS (gzip): ${onLoad} bytes on load, ${withDialog} bytes with the dialog; ${[...scripts.keys()].join(', ')}`);
  expect(onLoad).toBeGreaterThan(0);
  expect(withDialog, `${[...scripts.keys()].join(', ')}`).toBeLessThanOrEqual(BUDGET);
  // Nothing of the owner's app: no router bundle, no device database.
  expect([...scripts.keys()].filter((s) => /\/index-|local-db|rxdb|dexie/i.test(s))).toEqual([]);
  await ctx.close();
});
