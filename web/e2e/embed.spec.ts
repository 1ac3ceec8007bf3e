/**
 * The embed (issue 14 item 7): another site's page includes
 * `<script src="https://host/embed.js" data-avail="username">`; the owner's free times appear in an
 * iframe in the compact layout, and the iframe follows the content's height (postMessage). Only the
 * embed route may be framed: the normal public page framed by the same site is refused.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { OWNER_ZONE, uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

/** A site on another origin (its own port) serving `pages` by path. */
async function otherSite(pages: Record<string, string>) {
  const server = http.createServer((req, res) => {
    const html = pages[req.url ?? '/'];
    res.writeHead(html ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' }).end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

test('embed.js shows the free times on another site in a frame that sizes itself; only the embed route can be framed', async ({ page, browser, baseURL }) => {
  const acct = uniqueAccount('embed');
  await onboardedOwner(page, acct);
  // The owner copies the snippet from Links → "Embed on your website".
  await page.goto('/app/links');
  const snippet = (await page.getByRole('region', { name: 'Embed on your website' }).getByTestId('embed-snippet').textContent())!.trim();
  expect(snippet).toBe(`<script src="${baseURL}/embed.js" data-avail="${acct.username}"></script>`);
  const site = await otherSite({
    '/': `<!doctype html><title>Agency</title><h1>Our agency</h1>${snippet}<p id="after">Below the embed</p>`,
    '/plain': `<!doctype html><title>Framing the plain page</title><iframe id="plain" src="${baseURL}/${acct.username}" style="width:800px;height:600px"></iframe>`,
  });
  const visitor = await browser.newContext({ locale: 'en-GB', timezoneId: OWNER_ZONE });
  const host = await visitor.newPage();
  try {
    await host.goto(`${site.url}/`);
    const iframe = host.locator(`iframe[data-avail-frame="${acct.username}"]`);
    await expect(iframe).toHaveAttribute('src', `${baseURL}/embed/${acct.username}`);
    const frame = host.frameLocator(`iframe[data-avail-frame="${acct.username}"]`);
    await expect(frame.getByRole('heading', { name: `${acct.name}'s Availability` })).toBeVisible({ timeout: 15_000 });
    await expect(frame.getByRole('group', { name: 'Week of free times' })).toBeVisible();
    await expect(frame.locator('.pub-header')).toHaveCount(0); // the compact layout: no site header
    await expect(frame.getByRole('link', { name: 'Avail' })).toHaveAttribute('target', '_blank');

    // The frame is as tall as its content: nothing to scroll inside it.
    const fits = async () => {
      const box = await iframe.boundingBox();
      const content = await frame.locator('#root').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
      return box !== null && Math.abs(box.height - content) <= 1;
    };
    await expect.poll(fits).toBe(true);
    const weekHeight = (await iframe.boundingBox())!.height;
    expect(weekHeight).toBeGreaterThan(300);
    // The content changes height (month view): the frame follows.
    await frame.getByRole('button', { name: 'Month' }).click();
    await expect.poll(async () => (await iframe.boundingBox())!.height).not.toBe(weekHeight);
    await expect.poll(fits).toBe(true);
    await expect(host.locator('#after')).toBeVisible();

    // The same site framing the normal public page: refused by the browser (frame-ancestors 'none').
    await host.goto(`${site.url}/plain`);
    await expect.poll(() => host.frames().find((f) => f !== host.mainFrame())?.url()).toBe('chrome-error://chromewebdata/');
    await expect(host.frameLocator('#plain').getByRole('heading', { name: `${acct.name}'s Availability` })).toHaveCount(0);
  } finally {
    await visitor.close();
    await site.close();
  }
});
