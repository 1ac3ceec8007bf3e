/**
 * Settings → "Changes replaced on another device" (issue 13): an owner's weekly hours are replaced
 * by a later edit made on another device; Settings shows what was replaced and by which device, and
 * "Restore this version" brings it back on the server as a new edit from this browser.
 */
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '../../shared/src/rx/replication-protocol.ts';
import { expect, test } from '@playwright/test';
import { uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

test('a replaced version is listed with its device and time, and restoring it brings it back everywhere', async ({ page }) => {
  const acct = uniqueAccount('conflict');
  await onboardedOwner(page, acct);
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  expect(token).not.toBeNull();
  const headers = { Authorization: `Bearer ${token}`, [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) };

  // The Monday 9–5 rule as the server holds it.
  let rule: Record<string, unknown> | undefined;
  await expect
    .poll(async () => {
      const res = await page.request.get('/api/replication/availability_rules/pull', { headers });
      rule = ((await res.json()).documents as Array<Record<string, unknown>>).find((d) => !d._deleted);
      return rule?.start_time_local;
    })
    .toBe('09:00');

  // Another device ("phone"), offline since before, edits the same rule a minute later: it wins.
  const phone = { ...rule!, start_time_local: '13:00', end_time_local: '17:00', edited_at: Date.now() + 60_000, device_id: 'phone-7f3a9c21', updated_at: 0, _deleted: false };
  const pushed = await page.request.post('/api/replication/availability_rules/push', { headers, data: [{ assumedMasterState: null, newDocumentState: phone }] });
  expect(pushed.status()).toBe(200);

  // This browser receives the phone's version.
  await page.goto('/app/availability');
  await expect(page.getByText('1:00 PM - 5:00 PM')).toBeVisible({ timeout: 10_000 });

  await page.goto('/app/settings');
  const section = page.getByRole('region', { name: 'Changes replaced on another device' });
  await expect(section.getByText('Weekly hours: Monday 9:00 AM – 5:00 PM')).toBeVisible();
  await expect(section.getByText(/Replaced by another device \(phone-7f/)).toBeVisible();
  await section.getByRole('button', { name: 'Restore this version' }).click();
  await expect(section.getByText('Version restored. Your other devices get it at their next sync.')).toBeVisible();

  // The restore is a later edit than the phone's: the server keeps it.
  await expect
    .poll(async () => {
      const res = await page.request.get('/api/me/availability-rules', { headers });
      return ((await res.json()).rules as Array<{ start_time_local: string; end_time_local: string }>).map((r) => `${r.start_time_local}-${r.end_time_local}`);
    }, { timeout: 15_000 })
    .toEqual(['09:00-17:00']);
});
