/**
 * "Why is this time blocked?" (issue 14 item 6): in the owner's week preview, a calendar event opens
 * its source — title, calendar and connection, UID, single event — and a manual busy block says it
 * was added by hand, with its note. None of it reaches the public page.
 */
import { expect, test } from '@playwright/test';
import { nextWeekMonday, nextWeekWednesday, OWNER_ZONE, SECRET_TITLE, uniqueAccount, zonedDateTime } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

test("the week preview explains an event's source and a manual block; the public page shows neither", async ({ page, browser, baseURL }) => {
  const acct = uniqueAccount('why');
  await onboardedOwner(page, acct);
  await page.goto('/app/settings');
  await page.locator('.provider-card', { hasText: 'ICS feed URL' }).getByRole('button', { name: 'Connect' }).click();
  await page.getByLabel('Calendar feed URL').fill(process.env.E2E_ICS_URL!);
  await page.getByRole('button', { name: 'Connect feed' }).click();
  await expect(page.getByTestId('connection-row').getByText('Connected', { exact: true })).toBeVisible({ timeout: 30_000 });

  // A manual busy block next Monday 14:00–15:00 (made through the API, as another device would).
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const monday = nextWeekMonday(OWNER_ZONE);
  const block = await page.request.post('/api/me/blocks', {
    headers: { Authorization: `Bearer ${token}` },
    data: { start_ms: Date.parse(zonedDateTime(monday, '14:00', OWNER_ZONE)), end_ms: Date.parse(zonedDateTime(monday, '15:00', OWNER_ZONE)), note: 'Dentist (private)' },
  });
  expect(block.status()).toBe(201);

  await page.goto('/app/dashboard');
  await page.getByRole('button', { name: 'Next week' }).click();
  const event = page.getByRole('button', { name: `Why is this time blocked: ${SECRET_TITLE}` });
  await expect(event).toBeVisible({ timeout: 30_000 });
  await event.click();
  const dialog = page.getByRole('dialog', { name: 'Why is this time blocked?' });
  const details = dialog.getByTestId('why-blocked');
  await expect(details).toContainText(SECRET_TITLE);
  await expect(details).toContainText('secret-board-meeting@avail.e2e');
  await expect(details).toContainText('A single event (no repeat rule).');
  await expect(details).toContainText('It blocks this time');
  await expect(details).toContainText('(ICS feed)');
  await expect(details).toContainText('None: every event of this calendar was read.');
  const wednesday = nextWeekWednesday(OWNER_ZONE);
  await expect(details).toContainText(`${Number(wednesday.slice(8))} `); // the event's date
  await expect(details).toContainText('11:00–12:00');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await page.getByTestId('busy-block').getByRole('button', { name: 'Busy block', exact: true }).click();
  await expect(dialog.getByTestId('why-blocked')).toContainText('A busy block you added by hand.');
  await expect(dialog.getByTestId('why-blocked')).toContainText('Dentist (private)');
  await expect(dialog.getByTestId('why-blocked')).toContainText('14:00–15:00');
  await page.keyboard.press('Escape');

  // The visitor's page: no title, UID, note or source anywhere in it.
  const visitor = await browser.newContext({ locale: 'en-GB', timezoneId: OWNER_ZONE, baseURL });
  const pub = await visitor.newPage();
  // Next week (the block's and the event's) by its address: without a date the page opens on the
  // first week with free time, which from Tuesday on is already next week for a Monday-only owner.
  await pub.goto(`/${acct.username}?date=${monday}`);
  await expect(pub.getByRole('group', { name: 'Week of free times' })).toBeVisible();
  // The block is there as busy time only: Monday 09:00–17:00 less 14:00–15:00.
  await expect(pub.getByRole('button', { name: /^Free Mon \d+ \w+, 15:00–17:00 / })).toBeVisible();
  const html = await pub.content();
  for (const secret of [SECRET_TITLE, 'secret-board-meeting', 'Dentist', 'ICS feed', 'Why is this time blocked']) expect(html).not.toContain(secret);
  await visitor.close();
});
