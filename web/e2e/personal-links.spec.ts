/**
 * Links → "Personal links" (issue 14 item 2): an owner creates a link for a client, the client
 * opens it, the owner sees the view, switches the plain link off (only personal links open the
 * page) and revokes the link — after which it shows exactly what an unknown link shows.
 */
import { expect, test } from '@playwright/test';
import { uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

const NOT_FOUND = 'This availability link could not be found.';

test('a personal link opens the page, counts its views, survives the plain link being off, and is dead once revoked', async ({ page, browser }) => {
  const acct = uniqueAccount('share');
  await onboardedOwner(page, acct);
  await page.goto('/app/links');
  const card = page.getByRole('region', { name: 'Personal links' });

  // A label is required; the error says so and nothing is created.
  await card.getByRole('button', { name: 'Create link' }).click();
  await expect(card.getByText('Give the link a label, e.g. who it is for.')).toBeVisible();
  await expect(card.getByTestId('share-link')).toHaveCount(0);

  await card.getByLabel('Who is it for?').fill('Acme Corp');
  await card.getByLabel('Expiry').selectOption({ label: 'Expires in 7 days' });
  await card.getByRole('button', { name: 'Create link' }).click();
  const row = card.getByTestId('share-link').filter({ hasText: 'Acme Corp' });
  await expect(row).toBeVisible();
  await expect(row.getByText(/^Expires /)).toBeVisible();
  await expect(row.getByTestId('share-link-views')).toHaveText('0 views');
  const url = (await row.getByTestId('share-link-url').textContent())!.trim();
  expect(url).toMatch(new RegExp(`/${acct.username}\\?key=[A-Za-z0-9_-]{43}$`));

  // The client opens it: the owner's page, in a browser without the owner's session.
  const client = await browser.newContext({ locale: 'en-GB' });
  const visitor = await client.newPage();
  await visitor.goto(url);
  await expect(visitor.getByRole('heading', { name: `${acct.name}'s Availability` })).toBeVisible();
  await expect(visitor.getByRole('group', { name: 'Week of free times' })).toBeVisible();

  await page.reload();
  await expect(row.getByTestId('share-link-views')).toHaveText(/^1 view · last /);

  // Only people with a personal link: the plain link is "not found", the personal link still works.
  await card.getByLabel(/Only people with a personal link/).check();
  await expect(page.getByTestId('plain-link-off')).toBeVisible();
  await visitor.goto(`/${acct.username}`);
  await expect(visitor.getByText(NOT_FOUND)).toBeVisible();
  await visitor.goto(url);
  await expect(visitor.getByRole('heading', { name: `${acct.name}'s Availability` })).toBeVisible();

  // Revoke asks once, then the link is gone everywhere.
  await row.getByRole('button', { name: 'Revoke Acme Corp' }).click();
  await row.getByRole('button', { name: 'Revoke now' }).click();
  await expect(card.getByText('"Acme Corp" was revoked. It no longer opens your page.')).toBeVisible();
  await expect(card.getByTestId('share-link')).toHaveCount(0);
  await visitor.goto(url);
  await expect(visitor.getByText(NOT_FOUND)).toBeVisible();
  await expect(visitor.getByRole('heading', { name: 'Link not found' })).toBeVisible();
  await client.close();
});
