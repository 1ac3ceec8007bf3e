/**
 * Links → "Subscribe in your calendar" (issue 14 item 1): both feed addresses are shown and copyable,
 * and what they serve is the owner's free time as iCalendar (VFREEBUSY, or "Free" events).
 */
import { expect, test } from '@playwright/test';
import { uniqueAccount } from './fixtures.ts';
import { onboardedOwner } from './helpers.ts';

test('Links shows the free/busy and events feeds; each serves the free times as a calendar', async ({ page, context }) => {
  const acct = uniqueAccount('feed');
  await onboardedOwner(page, acct);
  await page.goto('/app/links');
  const section = page.getByRole('region', { name: 'Subscribe in your calendar' });
  await expect(section.getByText('Only times are shared — never what your events are.', { exact: false })).toBeVisible();
  const freeBusy = (await section.getByTestId('feed-freebusy').textContent())!.trim();
  const events = (await section.getByTestId('feed-events').textContent())!.trim();
  expect(freeBusy).toMatch(new RegExp(`/api/public/${acct.username}/free-busy\\.ics$`));
  expect(events).toBe(`${freeBusy}?format=events`);

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await section.getByRole('button', { name: 'Copy free/busy feed' }).click();
  await expect(section.getByRole('button', { name: 'Copied!' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(freeBusy);

  // A visitor's calendar app fetches them (no session).
  const fb = await page.request.get(freeBusy, { headers: { Authorization: '' } });
  expect(fb.status()).toBe(200);
  expect(fb.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const text = await fb.text();
  expect(text).toContain('BEGIN:VFREEBUSY');
  expect(text).toMatch(/FREEBUSY;FBTYPE=FREE:\d{8}T\d{6}Z\/\d{8}T\d{6}Z/); // the default Monday 9–5 lies within 8 weeks
  expect(text).toContain('FBTYPE=BUSY-UNAVAILABLE');
  const ev = await (await page.request.get(events)).text();
  expect(ev).toContain('SUMMARY:Free');
  expect(ev).toContain('TRANSP:TRANSPARENT');
});
