/**
 * Settings → a connection's "Busy rules" (issue 14 item 4): the owner makes events whose title
 * contains a keyword free, and the public availability follows at once; back to the defaults,
 * the event blocks its hour again.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { nextWeekMonday, OWNER_ZONE, uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

/** The public free windows of next week's Monday, as 'HH:MM–HH:MM' in Brussels. */
async function mondayWindows(request: APIRequestContext, username: string): Promise<string[]> {
  const monday = nextWeekMonday(OWNER_ZONE);
  const res = await request.get(`/api/public/${username}/availability`, { params: { range: `${monday}..${monday}`, tz: OWNER_ZONE } });
  expect(res.status()).toBe(200);
  const fmt = new Intl.DateTimeFormat('en-GB', { timeZone: OWNER_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return ((await res.json()).availability.windows as Array<{ start: string; end: string }>).map((w) => `${fmt.format(Date.parse(w.start))}–${fmt.format(Date.parse(w.end))}`);
}

test('busy rules: a free keyword frees the matching event on the public page, and the defaults bring it back', async ({ page, playwright, baseURL }) => {
  const acct = uniqueAccount('rules');
  await onboardedOwner(page, acct);
  await page.goto('/app/settings');
  await page.locator('.provider-card', { hasText: 'ICS feed URL' }).getByRole('button', { name: 'Connect' }).click();
  await page.getByLabel('Calendar feed URL').fill(process.env.E2E_ICS_URL!.replace('/calendar.ics', '/monday.ics'));
  await page.getByRole('button', { name: 'Connect feed' }).click();
  const row = page.getByTestId('connection-row');
  await expect(row.getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });

  const visitor = await playwright.request.newContext({ baseURL });
  expect(await mondayWindows(visitor, acct.username)).toEqual(['09:00–11:00', '12:00–17:00']);

  await row.locator('summary', { hasText: 'Busy rules' }).click();
  const form = row.getByRole('form', { name: /^Busy rules of / });
  await expect(form.getByLabel('All-day events')).toHaveValue('busy');
  await expect(form.getByLabel('Tentative events (you answered “maybe”)')).toHaveValue('busy');
  await expect(form.getByLabel('Invitations you have not answered')).toHaveValue('busy');
  await form.getByLabel('Free when the title contains').fill('lunch, board meeting');
  await form.getByRole('button', { name: 'Save busy rules' }).click();
  await expect(row.getByText('Busy rules saved. Your public page follows them now.')).toBeVisible();
  await expect(row.getByText(/Free if the title has: lunch, board meeting/)).toBeVisible();
  expect(await mondayWindows(visitor, acct.username)).toEqual(['09:00–17:00']);

  // The saved rules come back after a reload.
  await page.reload();
  await page.getByTestId('connection-row').locator('summary', { hasText: 'Busy rules' }).click();
  await expect(page.getByLabel('Free when the title contains')).toHaveValue('lunch, board meeting');
  await page.getByLabel('Free when the title contains').fill('');
  await page.getByRole('button', { name: 'Save busy rules' }).click();
  await expect(page.getByText('Busy rules saved. Your public page follows them now.')).toBeVisible();
  expect(await mondayWindows(visitor, acct.username)).toEqual(['09:00–11:00', '12:00–17:00']);
  await visitor.dispose();
});
