/**
 * ICS feed provider: one HTTP GET per sync, conditional on the stored ETag / Last-Modified
 * (304 = nothing to do, still a successful sync). The feed text is one calendar_sources row.
 *
 * A private feed URL (Google's "secret address", iCloud public links) works like a password, so
 * it is the connection's secret: it arrives decrypted in `secret`, is stored only encrypted, and
 * never appears in the config, the results (calendar/object ids) or the messages.
 */
import { SafeFetchError } from '../../lib/safe-fetch.ts';
import { ProviderAuthError, ProviderError, type CalendarProviderAdapter } from '../provider.ts';

export interface IcsConfig {
  /** Non-secret id of the feed's one source row (calendar_url and object_href): `ics:<connection id>`. */
  sourceId: string;
}

interface IcsState {
  etag?: string;
  lastModified?: string;
}

function calName(text: string): string | undefined {
  const m = /^X-WR-CALNAME(?:;[^:\r\n]*)?:(.*(?:\r?\n[ \t].*)*)/m.exec(text);
  if (!m) return undefined;
  const name = m[1]!.replace(/\r?\n[ \t]/g, '').replace(/\\([,;\\])/g, '$1').replace(/\\n/gi, ' ').trim();
  return name ? name.slice(0, 100) : undefined;
}

export const icsProvider: CalendarProviderAdapter<IcsConfig> = {
  id: 'ics',
  async sync({ config, secret, state, known }, ctx) {
    const url = secret;
    const id = config.sourceId;
    if (!url || !id) throw new ProviderAuthError('The calendar feed address could not be read. Please reconnect this calendar.');
    const prev = (state ?? {}) as IcsState;
    const haveFeed = known.some((k) => k.href === id);
    const headers: Record<string, string> = { accept: 'text/calendar, text/plain;q=0.9, */*;q=0.5' };
    if (haveFeed && prev.etag) headers['if-none-match'] = prev.etag;
    if (haveFeed && prev.lastModified) headers['if-modified-since'] = prev.lastModified;

    let res: Response;
    try {
      res = await ctx.fetch(url, { headers });
    } catch (err) {
      if (err instanceof SafeFetchError) throw new ProviderError(err.message);
      throw new ProviderError('Calendar feed could not be fetched');
    }
    if (res.status === 304 && haveFeed) {
      return { notModified: true, upserts: [], removals: [], removedCalendars: [], calendarsCount: 1, newState: prev, ownerEmails: [] };
    }
    if (res.status === 401 || res.status === 403) {
      throw new ProviderAuthError(`The calendar feed refused access (HTTP ${res.status}). Check that the link is still valid.`);
    }
    if (res.status === 404 || res.status === 410) throw new ProviderError(`Calendar feed not found (HTTP ${res.status}). Check the link.`);
    if (!res.ok) throw new ProviderError(`Calendar feed answered HTTP ${res.status}`);
    const text = await res.text();
    if (!/BEGIN:VCALENDAR/i.test(text.slice(0, 4096))) {
      throw new ProviderError('This URL does not return an iCalendar feed (no BEGIN:VCALENDAR).');
    }
    const newState: IcsState = {};
    const etag = res.headers.get('etag');
    const lastModified = res.headers.get('last-modified');
    if (etag) newState.etag = etag;
    if (lastModified) newState.lastModified = lastModified;
    return {
      notModified: false,
      upserts: [{ calendarUrl: id, href: id, etag: etag ?? null, icsText: text }],
      removals: known.filter((k) => k.href !== id).map((k) => ({ calendarUrl: k.calendarUrl, href: k.href })),
      removedCalendars: [],
      calendarsCount: 1,
      newState,
      ownerEmails: [],
      suggestedName: calName(text) ?? new URL(url).hostname,
      // A feed is one calendar, read-only by nature, busy until the owner says otherwise.
      calendars: [{ id, ...(calName(text) ? { name: calName(text)! } : {}), readOnly: true, busyByDefault: true }],
    };
  },
};
