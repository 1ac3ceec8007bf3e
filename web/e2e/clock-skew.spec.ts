/**
 * Issue 25 in Chromium against the real server: a browser whose clock is 2 hours slow syncs once,
 * is reloaded while offline (the app restarts: the conflict clock's correction must come from the
 * device database, not from memory) and edits Monday's hours a few seconds after another device
 * ("phone", correct clock) edited the same rule. Back online, the browser's later edit is the one
 * kept, and the phone's is listed as replaced — before issue 25 the browser's edit was stamped two
 * hours in the past and lost.
 */
import { expect, test } from '@playwright/test';
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '../../shared/src/rx/replication-protocol.ts';
import { uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

// The app-shell service worker is what lets a reload work offline (the config blocks workers elsewhere).
test.use({ serviceWorkers: 'allow' });

const SKEW_MS = -2 * 60 * 60_000;

test("a browser 2 h slow, reloaded offline, edits after another device: its later edit wins, the other's is listed as replaced", async ({ page, context, request }) => {
  // This browser's wall clock is two hours behind (Date.now is what the conflict clock reads).
  await context.addInitScript((skew) => {
    const realNow = Date.now.bind(Date);
    Date.now = () => realNow() + skew;
  }, SKEW_MS);
  const acct = uniqueAccount('skew');
  await onboardedOwner(page, acct);
  const status = page.getByTestId('sync-status');
  await page.getByRole('link', { name: 'Availability' }).click();
  await expect(status).toHaveText('Online', { timeout: 30_000 });
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 15_000 });
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const headers = { Authorization: `Bearer ${token}`, [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) };
  const mondayRule = async () => {
    const res = await request.get('/api/replication/availability_rules/pull', { headers });
    return ((await res.json()).documents as Array<Record<string, unknown>>).find((d) => !d._deleted && d.weekday === 0)!;
  };
  await expect.poll(async () => (await mondayRule())?.start_time_local).toBe('09:00');

  // The app restarts without network.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('availability-summary')).toContainText('1 slot across 1 day');
  await expect(status).toHaveText('Offline');

  // The phone (a correct clock) edits Monday now…
  const master = await mondayRule();
  const phone = { ...master, start_time_local: '13:00', end_time_local: '17:00', edited_at: Date.now(), device_id: 'phone-5c1d', updated_at: 0, _deleted: false };
  const pushed = await request.post('/api/replication/availability_rules/push', { headers, data: [{ assumedMasterState: master, newDocumentState: phone }] });
  expect(pushed.status()).toBe(200);
  await page.waitForTimeout(1_500); // real time passes: the browser's edit is later

  // …and the browser, still offline, edits it a moment later.
  await page.getByRole('button', { name: 'Edit Schedule' }).click();
  const modal = page.getByRole('dialog', { name: 'Edit Schedule' });
  await modal.getByLabel('End').first().fill('12:00');
  await modal.getByRole('button', { name: 'Save Schedule' }).click();
  await expect(page.getByText('Changes pending sync')).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByText('Changes pending sync')).toHaveCount(0, { timeout: 30_000 });
  await expect.poll(async () => `${(await mondayRule()).start_time_local}-${(await mondayRule()).end_time_local}`, { timeout: 15_000 }).toBe('09:00-12:00');
  const kept = await mondayRule();
  // Stamped in real time (not two hours back), after the phone's edit.
  expect(Number(kept.edited_at)).toBeGreaterThan(phone.edited_at);
  expect(Math.abs(Number(kept.edited_at) - Date.now())).toBeLessThan(60_000);
  await expect(page.getByText('9:00 AM - 12:00 PM')).toBeVisible();

  await page.goto('/app/settings');
  const section = page.getByRole('region', { name: 'Changes replaced on another device' });
  await expect(section.getByText('Weekly hours: Monday 1:00 PM – 5:00 PM')).toBeVisible();
});
