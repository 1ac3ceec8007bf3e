/**
 * Weekly hours without repeated slots (issue 23 item 4): 'Add Another Time Slot' moves on to the
 * next day without a slot; a slot that repeats or overlaps another slot of its day is marked on its
 * own fields and the schedule is not saved; back-to-back slots save; the "hours per week" total
 * counts each day's slots once where they overlap (here: an overlapping slot written by another
 * device). At 1280 and 375 px.
 */
import { REPLICATION_SCHEMA_VERSION, SCHEMA_HEADER } from '../../shared/src/rx/replication-protocol.ts';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { uniqueAccount } from './fixtures.ts';
import { onboardedOwner, saveScreenshot } from './helpers.ts';

const OVERLAP = 'This time slot overlaps another slot on the same day';
const DUPLICATE = 'This time slot is already set for this day';

/** The slot rows of the Edit Schedule modal. */
const slotRows = (modal: Locator) => modal.locator('.slot-row');

async function openEditor(page: Page) {
  await page.getByRole('button', { name: 'Edit Schedule' }).click();
  const modal = page.getByRole('dialog', { name: 'Edit Schedule' });
  await expect(modal).toBeVisible();
  return modal;
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test(`at ${viewport.width} px: new slots take the next free day, a repeated or overlapping slot is refused on its own fields, the total is the union`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const acct = uniqueAccount(`wk${viewport.width}`);
    await onboardedOwner(page, acct);
    await page.goto('/app/availability');
    const summary = page.getByTestId('availability-summary');
    await expect(summary).toContainText('1 slot across 1 day · 8 hours per week');

    // Adding slots: Tuesday, Wednesday, Thursday — each 09:00–17:00 (not another Monday).
    let modal = await openEditor(page);
    const add = modal.getByRole('button', { name: /Add Another Time Slot/ });
    await modal.getByLabel('End').first().fill('16:00');
    for (let n = 0; n < 3; n++) await add.click();
    await expect(modal.getByLabel('Day')).toHaveCount(4);
    for (const [i, day] of ['0', '1', '2', '3'].entries()) await expect(modal.getByLabel('Day').nth(i)).toHaveValue(day);
    await expect(modal.getByLabel('Start').nth(3)).toHaveValue('09:00');
    await expect(modal.getByLabel('End').nth(3)).toHaveValue('17:00');
    // The remove control stays on its slot's row (same line as the Day field), also at 375 px.
    const dayBox = await modal.getByLabel('Day').nth(3).boundingBox();
    const removeBox = await modal.getByRole('button', { name: 'Remove slot 4' }).boundingBox();
    expect(Math.abs(dayBox!.y + dayBox!.height - (removeBox!.y + removeBox!.height))).toBeLessThan(8);

    // The fourth slot moved onto Monday 10:00–12:00 overlaps Monday 09:00–16:00: marked on slot 4, nothing saved.
    await modal.getByLabel('Day').nth(3).selectOption({ label: 'Monday' });
    await modal.getByLabel('Start').nth(3).fill('10:00');
    await modal.getByLabel('End').nth(3).fill('12:00');
    await modal.getByRole('button', { name: 'Save Schedule' }).click();
    const fourth = slotRows(modal).nth(3);
    await expect(fourth.getByTestId('slot-error')).toHaveText(OVERLAP);
    await expect(fourth.getByLabel('Start')).toHaveAttribute('aria-invalid', 'true');
    await expect(fourth.getByLabel('Start')).toHaveAccessibleDescription(OVERLAP);
    await expect(fourth.getByLabel('Start')).toBeFocused();
    await expect(slotRows(modal).first().getByLabel('Start')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(modal.getByTestId('slot-error')).toHaveCount(1);
    await expect(modal).toBeVisible();
    await saveScreenshot(page, { path: `test-results/screenshots/weekly-hours-overlap-${viewport.width}.png`, fullPage: true });

    // The same hours again: a repeated slot, also refused on slot 4.
    await modal.getByLabel('Start').nth(3).fill('09:00');
    await expect(modal.getByTestId('slot-error')).toHaveCount(0); // an edit clears the error
    await modal.getByLabel('End').nth(3).fill('16:00');
    await modal.getByRole('button', { name: 'Save Schedule' }).click();
    await expect(fourth.getByTestId('slot-error')).toHaveText(DUPLICATE);
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect(modal).toHaveCount(0);
    await expect(summary).toContainText('1 slot across 1 day · 8 hours per week');
    // The Monday row still has its one slot.
    await expect(page.locator('.day-row', { hasText: 'Monday' }).locator('.slot-pill')).toHaveCount(1);

    // Back-to-back slots (the saved 09:00–17:00 ends where 17:00–19:00 starts) save.
    modal = await openEditor(page);
    await modal.getByRole('button', { name: /Add Another Time Slot/ }).click();
    await modal.getByLabel('Day').nth(1).selectOption({ label: 'Monday' });
    await modal.getByLabel('Start').nth(1).fill('17:00');
    await modal.getByLabel('End').nth(1).fill('19:00');
    await modal.getByRole('button', { name: 'Save Schedule' }).click();
    await expect(page.getByText('Availability updated successfully!')).toBeVisible();
    await expect(summary).toContainText('2 slots across 1 day · 10 hours per week');

    // Another device (offline when this one saved) adds Monday 12:00–18:00: all are kept, the
    // total counts Monday 09:00–19:00 once — 10 hours, not 16.
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    const headers = { Authorization: `Bearer ${token}`, [SCHEMA_HEADER]: String(REPLICATION_SCHEMA_VERSION) };
    const phone = {
      id: `phone-slot-${viewport.width}-${Date.now()}`,
      weekday: 0,
      start_time_local: '12:00',
      end_time_local: '18:00',
      edited_at: Date.now(),
      device_id: 'phone-weekly-1',
      updated_at: 0,
      _deleted: false,
    };
    const pushed = await page.request.post('/api/replication/availability_rules/push', { headers, data: [{ assumedMasterState: null, newDocumentState: phone }] });
    expect(pushed.status()).toBe(200);
    await page.reload();
    await expect(summary).toContainText('3 slots across 1 day · 10 hours per week', { timeout: 15_000 });
    await expect(page.locator('.day-row', { hasText: 'Monday' }).locator('.slot-pill')).toHaveCount(3);
  });
}
