/**
 * Clock-change notices (issue 14 item 5): a visitor in New York looking ahead at a Brussels owner's
 * month that holds both zones' spring changes reads, for each, when it happens and which way the
 * owner's hours move on their clock; a visitor in the owner's own zone reads none.
 */
import { expect, test, type Page } from '@playwright/test';
import { OWNER_ZONE, uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

/**
 * Clicks `button` ("Month", "Next month"), then waits for the shown month's own answer: until it
 * arrives the page may still show the previous answer (and its notices) under the new month's name.
 */
async function showMonth(pub: Page, button: 'Month' | 'Next month'): Promise<void> {
  // A month's answer (a range of 28–31 days), not a week's still in flight from the page's start.
  const isMonth = (url: string) => {
    const [from, to] = (new URL(url).searchParams.get('range') ?? '').split('..');
    return Date.parse(to ?? '') - Date.parse(from ?? '') > 20 * 86_400_000;
  };
  const answered = pub.waitForResponse((r) => r.url().includes('/availability?') && isMonth(r.url()) && r.ok(), { timeout: 15_000 });
  await pub.getByRole('button', { name: button }).click();
  await answered;
  await expect(pub.locator('.pub-loading')).toHaveCount(0, { timeout: 15_000 });
}

/** Month view, then "Next month" until a clock-change notice shows (at most 12 months ahead). */
async function monthWithNotices(pub: Page): Promise<string> {
  await showMonth(pub, 'Month');
  for (let i = 0; i < 12; i++) {
    await showMonth(pub, 'Next month');
    if ((await pub.getByTestId('pub-zone-change').count()) > 0) break;
  }
  return (await pub.getByTestId('pub-range').textContent())!.trim();
}

test('a visitor in another zone is told when clocks change and which way the hours move; one in the same zone is not', async ({ page, browser, baseURL }) => {
  const acct = uniqueAccount('dst');
  await onboardedOwner(page, acct);

  const ny = await browser.newContext({ locale: 'en-GB', timezoneId: 'America/New_York', baseURL });
  const pub = await ny.newPage();
  await pub.goto(`/${acct.username}`);
  await expect(pub.locator('#pub-tz')).toHaveValue('America/New_York');
  expect(await monthWithNotices(pub)).toMatch(/^(March|October|November) \d{4}$/);
  const texts = await pub.getByTestId('pub-zone-change').allTextContents();
  expect(texts.length).toBeGreaterThan(0);
  for (const text of texts) {
    const m = /^Clocks change on \d{1,2} (Mar|Oct|Nov) \d{4} in (America\/New York \(your time zone\)|Europe\/Brussels): times after it are 1 hour (later|earlier) for you\.$/.exec(text);
    expect(m, text).not.toBeNull();
    // Spring forward of the visitor's zone, or fall back of the owner's: the owner's hours come later on the visitor's clock.
    const spring = m![1] === 'Mar';
    const visitors = m![2].startsWith('America');
    expect(m![3], text).toBe(spring === visitors ? 'later' : 'earlier');
  }
  await ny.close();

  const local = await browser.newContext({ locale: 'en-GB', timezoneId: OWNER_ZONE, baseURL });
  const same = await local.newPage();
  await same.goto(`/${acct.username}`);
  await showMonth(same, 'Month');
  for (let i = 0; i < 5; i++) await showMonth(same, 'Next month');
  await expect(same.getByTestId('pub-range')).toHaveText(/\d{4}$/);
  await expect(same.getByTestId('pub-zone-change')).toHaveCount(0);
  await local.close();
});
