/**
 * Connecting Google or Microsoft in a browser spec: Settings → My Calendars → Connect {provider}
 * → the fake's consent page in a popup → Allow; the popup closes by itself.
 */
import { expect, type Page } from '@playwright/test';
import { fakeState, type FakeName } from './fakes-control.ts';

/** Settings → My Calendars → Connect {provider} → Allow in the popup; the popup closes by itself. */
export async function connectThroughPopup(page: Page, provider: FakeName) {
  const cardName = provider === 'google' ? 'Google Calendar' : 'Microsoft Outlook';
  const card = page.locator('.provider-card', { hasText: cardName });
  const connect = card.getByRole('button', { name: `Connect ${cardName}` });
  await expect(connect).toBeEnabled();
  const popupPromise = page.waitForEvent('popup');
  await connect.click();
  const popup = await popupPromise;
  // While the popup is open the card waits for it.
  await expect(card.getByRole('button', { name: /Connecting/ })).toBeDisabled();
  const { url } = await fakeState(provider);
  const allow = popup.locator(provider === 'google' ? '#allow' : '#accept');
  await expect(allow).toBeVisible();
  expect(popup.url().startsWith(url)).toBe(true);
  const closed = popup.isClosed() ? Promise.resolve() : popup.waitForEvent('close', { timeout: 20_000 });
  await allow.click();
  await closed;
  expect(popup.isClosed()).toBe(true);
}

