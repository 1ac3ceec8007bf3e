/**
 * The owner's date and time format (issue 22 item 3): Settings → Profile → "Date and time format"
 * changes how the owner's screens write dates and times (texts stay English). English (US) +
 * 12-hour + Sunday → the dashboard week starts on Sunday with 12-hour times; Deutsch + 24-hour +
 * Monday → German day names and 24-hour times; the choice is on the account, so a reload keeps it.
 * The browser runs in en-GB (the suite's default), so Automatic is English on a 24-hour clock.
 */
import { expect, test, type Page } from '@playwright/test';
import { nextWeekMonday, OWNER_ZONE, uniqueAccount, zonedDateTime } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

/** Sets the three format fields (select values; '' = Automatic), checks the live example, saves. */
async function chooseFormat(page: Page, locale: string, clock: '' | '12' | '24', weekStart: '' | '0' | '1' | '6', example: string) {
  await page.goto('/app/settings');
  const part = page.getByRole('group', { name: 'Date and time format' });
  await part.getByLabel('Format').selectOption(locale);
  await part.getByLabel('Clock').selectOption(clock);
  await part.getByLabel('First day of week').selectOption(weekStart);
  await expect(part.getByTestId('date-format-example')).toHaveText(example);
  await part.getByRole('button', { name: 'Save format' }).click();
  await expect(part.getByRole('status')).toHaveText('Date and time format saved');
}

/** The weekday of a plain date, 0 = Sunday. */
const dow = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();

test('the owner picks the formats of their screens; the dashboard week follows, and a reload keeps it', async ({ page }) => {
  const acct = uniqueAccount('fmt');
  await onboardedOwner(page, acct);
  const heads = page.locator('.cal-day-head');
  const hours = page.locator('.cal-hour-label');
  // A visitor's proposal next Monday 10:00–10:45 (the owner's zone) for the Proposed times card.
  const monday = nextWeekMonday(OWNER_ZONE);
  const proposal = await page.request.post(`/api/public/${acct.username}/proposals`, {
    headers: { 'X-Forwarded-For': '198.51.100.231' },
    data: { start: zonedDateTime(monday, '10:00', OWNER_ZONE), end: zonedDateTime(monday, '10:45', OWNER_ZONE), name: 'Vera Visitor', email: 'vera@example.com', visitor_timezone: OWNER_ZONE },
  });
  expect(proposal.status(), await proposal.text()).toBe(201);
  await page.reload();
  const proposed = page.getByRole('region', { name: 'Proposed times' }).getByTestId('proposal-item');
  const mondayDay = Number(monday.slice(8));
  await expect(proposed).toContainText(new RegExp(`Mon ${mondayDay} \\w+, 10:00–10:45`));

  // Automatic in an en-GB browser: Monday first (spec Z-11), 24-hour.
  await expect(heads.first().locator('.cal-weekday')).toHaveText('Mon');
  expect(dow((await heads.first().getAttribute('data-date'))!)).toBe(1);
  await expect(hours.filter({ hasText: '08:00' })).toHaveCount(1);
  await expect(page.locator('.cal-available').first()).toHaveText('09:00–17:00');

  // English (US), 12-hour, Sunday first.
  await chooseFormat(page, 'en-US', '12', '0', 'Mon, Nov 30, 9:00 AM');
  await page.goto('/app/dashboard');
  await expect(heads.first().locator('.cal-weekday')).toHaveText('Sun');
  expect(dow((await heads.first().getAttribute('data-date'))!)).toBe(0);
  await expect(heads.nth(1).locator('.cal-weekday')).toHaveText('Mon');
  await expect(hours.filter({ hasText: /^8:00\sAM$/ })).toHaveCount(1);
  // The Monday rule sits in the second column now, on the 12-hour clock.
  await expect(page.locator('.cal-col').nth(1).locator('.cal-available')).toHaveText(/^9:00\sAM–5:00\sPM$/);
  await expect(page.locator('.cal-col').first().locator('.cal-available')).toHaveCount(0);
  await expect(proposed).toContainText(new RegExp(`Mon, \\w+ ${mondayDay}, 10:00\\s?–\\s?10:45\\sAM`));
  // The range label reads the US way (month before day).
  await expect(page.locator('#week-cal-title + p')).toContainText(/^[A-Z][a-z]{2} \d{1,2}/);

  // Deutsch, 24-hour, Monday first.
  await chooseFormat(page, 'de', '24', '1', 'Mo., 30. Nov., 09:00');
  await page.goto('/app/dashboard');
  const german = ['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So'];
  await expect(heads.locator('.cal-weekday')).toHaveText(german);
  await expect(hours.filter({ hasText: '08:00' })).toHaveCount(1);
  await expect(hours.filter({ hasText: /AM|PM/ })).toHaveCount(0);
  await expect(page.locator('.cal-col').first().locator('.cal-available')).toHaveText('09:00–17:00');
  await expect(proposed).toContainText(new RegExp(`Mo\\., ${mondayDay}\\. .+10:00.+10:45`));

  // Kept on the account: a reload (and the settings form) still say so.
  await page.reload();
  await expect(heads.locator('.cal-weekday')).toHaveText(german);
  await page.goto('/app/settings');
  const part = page.getByRole('group', { name: 'Date and time format' });
  await expect(part.getByLabel('Format')).toHaveValue('de');
  await expect(part.getByLabel('Clock')).toHaveValue('24');
  await expect(part.getByLabel('First day of week')).toHaveValue('1');
  await expect(part.getByTestId('date-format-example')).toHaveText('Mo., 30. Nov., 09:00');

  // Back to Automatic: the en-GB browser's own formats again.
  await chooseFormat(page, '', '', '', 'Mon 30 Nov, 09:00');
  await page.goto('/app/dashboard');
  await expect(heads.first().locator('.cal-weekday')).toHaveText('Mon');
  await expect(hours.filter({ hasText: '08:00' })).toHaveCount(1);
});
