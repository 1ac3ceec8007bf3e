/** Provider registry: the pull-based providers the sync service can run. */
import { appleProvider } from './apple/apple.provider.ts';
import { caldavProvider } from './caldav/caldav.provider.ts';
import { icsProvider } from './ics/ics.provider.ts';
import type { CalendarProviderAdapter } from './provider.ts';

export const pullProviders: Record<'ics' | 'caldav' | 'apple', CalendarProviderAdapter<any>> = {
  ics: icsProvider,
  caldav: caldavProvider,
  apple: appleProvider,
};

export function isPullProvider(id: string): id is keyof typeof pullProviders {
  return id === 'ics' || id === 'caldav' || id === 'apple';
}
