/**
 * The public page's data (issue 15 item 7: the page's data apart from its view): the visitor's
 * zone, the place shown (week or month, and a date in it — issue 22 item 2: kept in the address as
 * `?view=month&date=2026-12-08`, so back/forward and shared addresses work), the clock, and the
 * public answer (`GET /api/public/{username}/availability?range=YYYY-MM-DD..YYYY-MM-DD&tz=…[&key=…]`,
 * spec §4) with its loading and error states. public-page.tsx only renders what this hook returns.
 *
 * Free time first (issue 22 item 2): with no date in the address, the page opens on the first week
 * (and, on a phone, the first day) holding free time from now on — from the answer's windows, or
 * its `next_free` when the shown period has none.
 *
 * Server-rendered (issue 11, P3): with `initial` (the server's PublicBoot) the first render uses the
 * server's inputs — its answer, the owner's zone, its clock, its place, no browser-only values — so
 * it hydrates the server's markup exactly; right after, the hook takes the browser's clock and, when
 * the visitor's detected zone differs, switches to it (keeping the server's windows on screen until
 * the new answer arrives).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError, type PublicAvailability } from '@avail/shared/api/api-client.ts';
import { BUSY_HORIZON_DAYS, PUBLIC_CLOCK_TICK_MS } from '@avail/shared/constants.ts';
import { addDays, addMonths, browserTimeZone, dateInZone, monthOf, weekOf, type DaySegment } from '../../lib/time.ts';
import { daySegmentsOf, firstFreeDate, nextFreeAfter } from './public-windows.ts';
import type { PublicBoot } from './public-boot.ts';
import { placeFromSearch, searchWithPlace, type PublicPlace, type PublicView } from './public-view.ts';

/** Where the page is: loading, showing an answer, or one of the three error states (spec §8). */
export type PublicStatus = 'loading' | 'loaded' | 'not_found' | 'server_error' | 'network_error';

/** Everything the public page shows, and the visitor's actions on it. */
export interface PublicAvailabilityState {
  status: PublicStatus;
  /** The last answer (kept on screen while a new range or zone loads); null before the first. */
  data: PublicAvailability | null;
  /** IANA zone the times are shown in. */
  tz: string;
  /** The browser's detected zone; null until hydrated (server render). */
  detected: string | null;
  view: PublicView;
  /** True when the shown week or month holds today (offset 0, spec §2). */
  isCurrent: boolean;
  /** The visitor's clock (UTC epoch ms), ticking every PUBLIC_CLOCK_TICK_MS. */
  now: number;
  /** Today (YYYY-MM-DD) in `tz`. */
  today: string;
  /** The dates shown (YYYY-MM-DD in `tz`): 7 for a week (from the locale's first day), the month's days for a month. */
  dates: string[];
  /** The answer's free windows cut into per-day segments of `dates` (UTC epoch ms). */
  segments: DaySegment[];
  /** The chosen day: the phone's day list and the month's day panel show its windows. */
  selectedDay: string | null;
  /** The day the phone's day list shows: the chosen one, else the address's, else the first with free time from today, else today or the first shown. */
  dayInFocus: string;
  /** The first free time after the shown period (UTC ms), when the answer names one. */
  nextFree: number | null;
  setTz(zone: string): void;
  switchView(view: PublicView): void;
  /** Moves `delta` weeks (week view) or months (month view). */
  page(delta: number): void;
  /** Back to the current week or month. */
  goToCurrent(): void;
  /** Goes to the period holding `date` and chooses that day. */
  goToDate(date: string): void;
  selectDay(day: string | null): void;
  /** Loads the answer again after an error. */
  retry(): void;
  /** Refetches the shown windows quietly (after a proposal answered 'no longer free'). */
  refreshWindows(): void;
}

/** Days ahead a date in the address may be: the public horizon less a month's range. */
const HORIZON_DAYS = BUSY_HORIZON_DAYS - 31;

/**
 * The public page's state for `slug` (the owner's username) opened with `linkKey` (a personal
 * link's `?key=`, sent with every call), `weekStart` (the visitor locale's first day of the week,
 * 0 = Sunday) and, when server-rendered, the server's `initial` boot data. Errors never throw:
 * 404 → 'not_found', another HTTP error → 'server_error', no answer → 'network_error'.
 */
export function usePublicAvailability(slug: string, linkKey: string | undefined, initial: PublicBoot | undefined, weekStart: number): PublicAvailabilityState {
  const [tz, setTz] = useState(() => initial?.tz ?? browserTimeZone());
  const [place, setPlace] = useState<PublicPlace>(() => initial?.place ?? (typeof location !== 'undefined' ? placeFromSearch(location.search) : { view: 'week', date: null }));
  const [now, setNow] = useState(() => initial?.now ?? Date.now());
  const [status, setStatus] = useState<PublicStatus>(initial ? 'loaded' : 'loading');
  const [data, setData] = useState<PublicAvailability | null>(initial?.data ?? null);
  const [attempt, setAttempt] = useState(0);
  const [selectedDay, setSelectedDay] = useState<string | null>(null);
  // Browser-only values (detected zone) join after hydration; null before.
  const [detected, setDetected] = useState<string | null>(() => (initial ? null : browserTimeZone()));
  // The server's answer already covers its first view: its refresh, and the switch to the
  // visitor's zone right after hydration, are fetched without showing a loading state.
  const skipFetch = useRef<string | null>(null);
  const quietFetch = useRef(false);

  useEffect(() => {
    if (!initial) return;
    const zone = browserTimeZone();
    setDetected(zone);
    setNow(Date.now());
    if (zone !== initial.tz) {
      quietFetch.current = true;
      setTz(zone);
    }
    // `initial` is the server's boot data, passed once by the entry and never replaced: this runs
    // once, right after hydration.
  }, [initial]);

  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), PUBLIC_CLOCK_TICK_MS);
    return () => clearInterval(t);
  }, []);

  // Back and forward move through the places the visitor went to.
  useEffect(() => {
    const onPop = () => {
      setPlace(placeFromSearch(location.search));
      setSelectedDay(null);
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  const today = dateInZone(now, tz);
  // No date in the address (or one beyond the public horizon, which the API refuses): the first
  // day with free time (free time first), else today.
  const asked = place.date && place.date <= addDays(today, HORIZON_DAYS) ? place.date : null;
  const anchor = asked ?? firstFreeDate(data, now, tz) ?? today;
  const dates = useMemo(() => (place.view === 'week' ? weekOf(anchor, weekStart) : monthOf(anchor)), [place.view, anchor, weekStart]);
  const range = `${dates[0]}..${dates[dates.length - 1]}`;
  if (initial && skipFetch.current === null) skipFetch.current = `${range}|${tz}`;

  useEffect(() => {
    // The server's answer is on screen: refresh it quietly (no loading state) — the browser's own
    // request carries its zone and range, and is what counts a visit from a page the server
    // rendered once and a cache may have kept.
    if (skipFetch.current === `${range}|${tz}` && attempt === 0) {
      skipFetch.current = '';
      // A visitor in another zone: the switch to it (right after hydration) does the fetch.
      if (browserTimeZone() !== tz) return;
      quietFetch.current = true;
    }
    skipFetch.current = '';
    const ctrl = new AbortController();
    if (quietFetch.current) quietFetch.current = false;
    else setStatus('loading');
    api
      .publicAvailability(slug, range, tz, ctrl.signal, linkKey)
      .then((res) => {
        if (!res || typeof res !== 'object' || !res.availability) {
          setStatus('not_found');
          return;
        }
        setData(res);
        setStatus('loaded');
      })
      .catch((e) => {
        if (ctrl.signal.aborted) return;
        if (e instanceof ApiError) setStatus(e.status === 404 ? 'not_found' : 'server_error');
        else setStatus('network_error');
      });
    return () => ctrl.abort();
  }, [slug, linkKey, range, tz, attempt]);

  const refreshWindows = useCallback(() => {
    api
      .publicAvailability(slug, range, tz, undefined, linkKey)
      .then((res) => res?.availability && setData(res))
      .catch(() => undefined);
  }, [slug, linkKey, range, tz]);

  const segments = useMemo(() => daySegmentsOf(data, dates, tz), [data, dates, tz]);
  const nextFree = useMemo(() => nextFreeAfter(data, dates, tz), [data, dates, tz]);

  const chosen = selectedDay && dates.includes(selectedDay) ? selectedDay : null;
  const dayInFocus =
    chosen ??
    (asked && dates.includes(asked) ? asked : null) ??
    segments.find((s) => s.date >= today && s.endMs > now)?.date ??
    (dates.includes(today) ? today : dates[0]);

  /** Shows `next` (pushing it into the address and history). */
  const go = useCallback((next: PublicPlace) => {
    setPlace(next);
    if (typeof history !== 'undefined') history.pushState(null, '', `${location.pathname}${searchWithPlace(location.search, next)}${location.hash}`);
  }, []);

  const view = place.view;
  return {
    status,
    data,
    tz,
    detected,
    view,
    isCurrent: dates.includes(today),
    now,
    today,
    dates,
    segments,
    selectedDay: chosen,
    dayInFocus,
    nextFree,
    setTz,
    switchView(v) {
      // The date in view stays in view: the chosen day, else the anchor.
      go({ view: v, date: selectedDay && dates.includes(selectedDay) ? selectedDay : anchor });
    },
    page(delta) {
      setSelectedDay(null);
      go({ view, date: view === 'week' ? addDays(dates[0], delta * 7) : addMonths(`${anchor.slice(0, 7)}-01`, delta) });
    },
    goToCurrent() {
      setSelectedDay(null);
      go({ view, date: today });
    },
    goToDate(date) {
      setSelectedDay(date);
      go({ view, date });
    },
    selectDay: setSelectedDay,
    retry: () => setAttempt((n) => n + 1),
    refreshWindows,
  };
}
