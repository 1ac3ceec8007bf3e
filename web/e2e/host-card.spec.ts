/**
 * The host (issue 22 item 4): Settings → Profile uploads a picture and saves an introduction, the
 * public answer carries them (`host: { intro, avatar_url }`), the picture's versioned URL serves a
 * 256 px WebP with an immutable cache, and Remove brings the initials back.
 * The page itself places HostCard (features/public/host-card.tsx); see the note at the end.
 */
import { deflateSync, crc32 } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

/** A `width`×`height` RGB PNG: red left half, blue right half (written by hand: no image library in the specs). */
function twoTonePng(width: number, height: number): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(x < width / 2 ? [220, 0, 0] : [0, 0, 220], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, no interlace
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

async function publicHost(page: Page, username: string) {
  const res = await page.request.get(`/api/public/${username}/availability`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { host: { intro: string | null; avatar_url: string | null } }).host;
}

test('Settings → Profile: picture and introduction reach the public answer; the picture URL is an immutable WebP', async ({ page }) => {
  const acct = { ...uniqueAccount('host'), name: 'Olivia Owner' };
  await onboardedOwner(page, acct);
  await page.goto('/settings');
  const profile = page.getByRole('region', { name: 'Profile' });
  await expect(profile.getByTestId('profile-initials')).toHaveText('OO');
  expect(await publicHost(page, acct.username)).toEqual({ intro: null, avatar_url: null });

  const input = profile.locator('#profile-picture-input');
  // A GIF is refused in the browser; bytes that are no PNG are refused by the server; both on the field.
  await input.setInputFiles({ name: 'cat.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(profile.getByRole('alert').filter({ hasText: 'The picture must be a PNG, JPEG or WebP image' })).toBeVisible();
  await input.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('this is not a picture') });
  await expect(profile.getByRole('alert').filter({ hasText: 'The file is not a valid PNG image' })).toBeVisible();
  await expect(profile.getByTestId('profile-initials')).toBeVisible();
  expect((await publicHost(page, acct.username)).avatar_url).toBeNull();

  // A real PNG: the preview shows the stored copy.
  await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: twoTonePng(600, 400) });
  await expect(profile.getByRole('img', { name: 'Your picture' })).toBeVisible();
  await expect(profile.getByText('Picture updated')).toBeVisible();
  await expect(profile.getByRole('alert').filter({ hasText: /./ })).toHaveCount(0);
  expect(await profile.getByRole('img', { name: 'Your picture' }).evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([256, 256]);

  // The introduction: a counter, 161 characters refused on the field, then saved.
  const intro = profile.getByLabel('Introduction');
  await intro.fill('x'.repeat(161));
  await expect(profile.getByText('161/160', { exact: false })).toBeVisible();
  await profile.getByRole('button', { name: 'Save introduction' }).click();
  await expect(profile.getByRole('alert').filter({ hasText: 'Introduction must be at most 160 characters' })).toBeVisible();
  await intro.fill('Product designer in Ghent. Happy to talk about your project.');
  await expect(profile.getByText('60/160', { exact: false })).toBeVisible();
  await profile.getByRole('button', { name: 'Save introduction' }).click();
  await expect(profile.getByText('Introduction saved')).toBeVisible();

  // The public answer carries both; the versioned picture URL is a 256 px WebP, cached for a year.
  const host = await publicHost(page, acct.username);
  expect(host.intro).toBe('Product designer in Ghent. Happy to talk about your project.');
  expect(host.avatar_url).toMatch(new RegExp(`^/api/public/${acct.username}/avatar\\.webp\\?v=[0-9a-f]{16}$`));
  const picture = await page.request.get(host.avatar_url!);
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toBe('image/webp');
  expect(picture.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const bytes = await picture.body();
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');

  // The public page shows the host once: the picture (loaded), the name in the heading only, the intro.
  const pageRes = await page.goto(`/${acct.username}`);
  expect(pageRes?.status()).toBe(200);
  const avatar = page.locator('.host-card img.host-avatar');
  await expect(avatar).toHaveAttribute('src', host.avatar_url!);
  await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);
  await expect(page.locator('.host-card .host-intro')).toHaveText(host.intro!);
  await expect(page.locator('.host-card')).toContainText('Olivia Owner', { useInnerText: true });
  expect((await page.locator('.pub-main').innerText()).split('Olivia Owner').length - 1).toBe(1);

  // Remove: the initials come back, the answer has no picture, the old URL is gone.
  await page.goto('/settings');
  await profile.getByRole('button', { name: 'Remove' }).click();
  await expect(profile.getByText('Picture removed')).toBeVisible();
  await expect(profile.getByTestId('profile-initials')).toHaveText('OO');
  expect((await publicHost(page, acct.username)).avatar_url).toBeNull();
  expect((await page.request.get(host.avatar_url!)).status()).toBe(404);
  // The introduction stays.
  await expect(profile.getByLabel('Introduction')).toHaveValue('Product designer in Ghent. Happy to talk about your project.');
});
