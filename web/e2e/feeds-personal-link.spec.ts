/**
 * Links → "Subscribe in your calendar" and "Embed on your website" with the public link off
 * (issue 14 items 1, 2, 7): addresses through the public link show "not found", the card says so,
 * and a personal link's addresses — chosen by default once there is one — carry its key and work.
 */
import { expect, test } from '@playwright/test';
import { uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

test('with the public link off, the feed and embed addresses go through a personal link and work', async ({ page, playwright }) => {
  const acct = uniqueAccount('feedkey');
  await onboardedOwner(page, acct);
  await page.goto('/app/links');
  const personal = page.getByRole('region', { name: 'Personal links' });
  const subscribe = page.getByRole('region', { name: 'Subscribe in your calendar' });
  const embed = page.getByRole('region', { name: 'Embed on your website' });
  const visitor = await playwright.request.newContext(); // a calendar app: no session

  // The public link off and no personal link yet: the card says the addresses will not work.
  await personal.getByLabel(/Only people with a personal link/).check();
  await expect(subscribe.getByTestId('feed-via-off')).toHaveText(
    'Your public link is off, so addresses through it show “not found”. Create a personal link above to get addresses that work.',
  );
  const plainFeed = (await subscribe.getByTestId('feed-freebusy').textContent())!.trim();
  expect(plainFeed).toMatch(new RegExp(`/api/public/${acct.username}/free-busy\\.ics$`));
  expect((await visitor.get(plainFeed)).status()).toBe(404);

  // A personal link for the calendar app: both cards now go through it.
  await personal.getByLabel('Who is it for?').fill('My calendar app');
  await personal.getByRole('button', { name: 'Create link' }).click();
  const shareUrl = (await personal.getByTestId('share-link-url').textContent())!.trim();
  const key = new URL(shareUrl).searchParams.get('key')!;
  await expect(subscribe.getByLabel('Through').locator('option:checked')).toHaveText('Personal link: My calendar app');
  await expect(subscribe.getByTestId('feed-via-off')).toHaveCount(0);
  const freeBusy = (await subscribe.getByTestId('feed-freebusy').textContent())!.trim();
  const events = (await subscribe.getByTestId('feed-events').textContent())!.trim();
  expect(freeBusy).toBe(`${plainFeed}?key=${key}`);
  expect(events).toBe(`${plainFeed}?key=${key}&format=events`);
  const fb = await visitor.get(freeBusy);
  expect(fb.status()).toBe(200);
  expect(await fb.text()).toContain('BEGIN:VFREEBUSY');
  expect(await (await visitor.get(events)).text()).toContain('SUMMARY:Free');
  await expect(embed.getByTestId('embed-snippet')).toHaveText(new RegExp(`data-avail="${acct.username}" data-key="${key}"></script>$`));

  // Back to the public link on purpose: the warning returns and the address has no key.
  await subscribe.getByLabel('Through').selectOption({ label: 'Your public link (off)' });
  await expect(subscribe.getByTestId('feed-via-off')).toContainText('Choose a personal link.');
  await expect(subscribe.getByTestId('feed-freebusy')).toHaveText(plainFeed);
  // The embed card keeps its own choice.
  await expect(embed.getByTestId('embed-snippet')).toContainText(`data-key="${key}"`);
  await visitor.dispose();
});
