/**
 * Issue 12 (1): the pages run under the server's strict Content-Security-Policy (no inline or
 * foreign script, no framing) without a single violation — landing, sign-up to the dashboard and
 * every owner tab, the server-rendered public page and its proposal dialog.
 */
import { expect, test, type Page } from '@playwright/test';
import { nextWeekMonday, OWNER_ZONE, uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

/** Records every CSP violation and CSP console error of `page` from its first script on. */
async function watchCsp(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction('__cspViolation', (v: string) => void seen.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) seen.push(msg.text());
  });
  return seen;
}

test('no CSP violation on the landing page, the owner app and the public page', async ({ page, browser, baseURL }) => {
  const violations = await watchCsp(page);
  const res = await page.goto('/');
  const policy = res!.headers()['content-security-policy'];
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  await expect(page.getByRole('link', { name: /get started|sign up|create/i }).first()).toBeVisible();

  const acct = uniqueAccount('csp');
  await onboardedOwner(page, acct);
  for (const tab of ['Availability', 'Links', 'Analytics', 'Overview']) {
    await page.getByRole('link', { name: tab, exact: true }).first().click();
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  }
  await page.goto('/app/settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

  const visitor = await browser.newContext({ locale: 'en-GB', baseURL });
  const pub = await visitor.newPage();
  const pubViolations = await watchCsp(pub);
  // Next week by its address (without a date the page opens on the first week with free time).
  await pub.goto(`/${acct.username}?date=${nextWeekMonday(OWNER_ZONE)}`);
  await expect(pub.getByRole('heading', { name: `${acct.name}'s Availability` })).toBeVisible();
  const free = pub.getByRole('button', { name: /^Free / }).first();
  await free.click();
  await expect(pub.getByRole('dialog')).toBeVisible();
  await pub.keyboard.press('Escape');
  await visitor.close();

  expect(violations).toEqual([]);
  expect(pubViolations).toEqual([]);
});

test('a page of the app cannot be framed by another site', async ({ page, baseURL }) => {
  // A data: page is another origin: it frames the login page, and Chromium refuses to show it
  // (frame-ancestors 'none'): the frame ends on Chromium's error page, not on the form.
  await page.goto(`data:text/html,<iframe id="f" src="${baseURL}/login"></iframe>`);
  await expect.poll(() => page.frames()[1]?.url()).toMatch(/^chrome-error:/);
  expect(await page.frames()[1]!.locator('input').count()).toBe(0);
});
