/** How each calendar provider is named on the owner's screens (Settings, dashboard notices). */
export const PROVIDER_LABEL: Record<string, string> = {
  ics: 'ICS feed',
  caldav: 'CalDAV',
  apple: 'Apple iCloud',
  google: 'Google Calendar',
  microsoft: 'Microsoft Outlook',
};
