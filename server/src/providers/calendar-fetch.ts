/**
 * The guarded fetch every calendar request goes through (provider syncs, connect, event writes):
 * lib/safe-fetch.ts with the server's ALLOW_PRIVATE_CALENDAR_HOSTS setting, and one log line for
 * whoever runs the server when a private address is refused. Used by the sync, calendars and
 * proposals modules alike, so it lives here, next to the adapters it is handed to.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { SafeFetchError, createSafeFetch, type SafeFetch } from '../lib/safe-fetch.ts';

/** What calendarFetchFor needs; `calendarFetch` lets tests inject a guarded fetch (e.g. a short timeout). */
export interface CalendarFetchDeps {
  config: Pick<Config, 'ALLOW_PRIVATE_CALENDAR_HOSTS'>;
  logger: Logger;
  calendarFetch?: SafeFetch;
}

/**
 * The guarded fetch of calendar requests (lib/safe-fetch.ts). A refused private-network address
 * gets one warning in the server log that names ALLOW_PRIVATE_CALENDAR_HOSTS, for whoever runs the
 * server (the owner only sees "Address not allowed: private network"); no URL is logged (feed
 * URLs can be secrets).
 */
export function calendarFetchFor(deps: CalendarFetchDeps): SafeFetch {
  const guarded = deps.calendarFetch ?? createSafeFetch({ allowPrivate: deps.config.ALLOW_PRIVATE_CALENDAR_HOSTS });
  return async (input, init) => {
    try {
      return await guarded(input, init);
    } catch (err) {
      if (err instanceof SafeFetchError && err.code === 'address_not_allowed') {
        deps.logger.warn(
          { setting: 'ALLOW_PRIVATE_CALENDAR_HOSTS' },
          'calendar address refused: it resolves to a private or loopback network; to sync calendars on your own network (a local CalDAV server or ICS feed), start the server with ALLOW_PRIVATE_CALENDAR_HOSTS=true',
        );
      }
      throw err;
    }
  };
}
