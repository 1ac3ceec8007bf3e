/**
 * The public page's data (issue 15 item 7: the page's data apart from its view): the visitor's
 * zone, the week/month range shown, the clock, and the public answer
 * (`GET /api/public/{username}/availability?range=YYYY-MM-DD..YYYY-MM-DD&tz=…[&key=…]`, spec §4)
 * with its loading and error states. public-page.tsx only renders what this hook returns.
 *
 * Server-rendered (issue 11, P3): with `initial` (the server's PublicBoot) the first render uses the
 * server's inputs — its answer, the owner's zone, its clock, no browser-only values — so it hydrates
 * the server's markup exactly; right after, the hook takes the browser's clock and, when the
 * visitor's detected zone differs, switches to it (keeping the server's windows on screen until the
 * new answer arrives).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError, type PublicAvailability } from '@avail/shared/api/api-client.ts';
import { PUBLIC_CLOCK_TICK_MS } from '@avail/shared/constants.ts';
import { addDays, browserTimeZone, dateInZone, daysInMonth, monthStart, splitByDay, weekDates, zonedToUtc, type DaySegment } from '../../lib/time.ts';
import type { PublicBoot } from './public-boot.ts';

/** Where the page is: loading, showing an answer, or one of the three error states (spec §8). */
export type PublicStatus = 'loading' | 'loaded' | 'not_found' | 'server_error' | 'network_error';
export type PublicView = 'week' | 'month';

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
  /** Pages away from the current week or month (0 = current). */
  offset: number;
  /** The visitor's clock (UTC epoch ms), ticking every PUBLIC_CLOCK_TICK_MS. */
  now: number;
  /** Today (YYYY-MM-DD) in `tz`. */
  today: string;
  /** The dates shown (YYYY-MM-DD in `tz`): 7 for a week, the month's days for a month. */
  dates: string[];
  /** The answer's free windows cut into per-day segments of `dates` (UTC epoch ms). */
  segments: DaySegment[];
  /** The month view's selected day, or null. */
  selectedDay: string | null;
  setTz(zone: string): void;
  switchView(view: PublicView): void;
  /** Moves `delta` weeks (week view) or months (month view); clears the selected day. */
  page(delta: number): void;
  /** Back to the current week or month. */
  goToCurrent(): void;
  selectDay(day: string | null): void;
  /** Loads the answer again after an error. */
  retry(): void;
  /** Refetches the shown windows quietly (after a proposal answered 'no longer free'). */
  refreshWindows(): void;
}

/**
 * The public page's state for `slug` (the owner's username) opened with `linkKey` (a personal
 * link's `?key=`, sent with every call) and, when server-rendered, the server's `initial` boot data.
 * Errors never throw: 404 → 'not_found', another HTTP error → 'server_error', no answer →
 * 'network_error'.
 */
export function usePublicAvailability(slug: string, linkKey: string | undefined, initial: PublicBoot | undefined): PublicAvailabilityState {
  const [tz, setTz] = useState(() => initial?.tz ?? browserTimeZone());
  const [view, setView] = useState<PublicView>('week');
  const [offset, setOffset] = useState(0);
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

  const today = dateInZone(now, tz);
  const dates = useMemo(() => {
    if (view === 'week') return weekDates(today, offset);
    const first = monthStart(today, offset);
    return Array.from({ length: daysInMonth(first) }, (_, i) => addDays(first, i));
  }, [view, today, offset]);
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

  const segments = useMemo(() => {
    if (!data) return [] as DaySegment[];
    const out: DaySegment[] = [];
    // Only windows overlapping the shown dates (the server's answer covers 28 days).
    const from = zonedToUtc(dates[0], 0, tz);
    const to = zonedToUtc(addDays(dates[dates.length - 1], 1), 0, tz);
    for (const w of data.availability.windows ?? []) {
      const s = Date.parse(w.start);
      const e = Date.parse(w.end);
      if (Number.isFinite(s) && Number.isFinite(e) && e > s && s < to && e > from) out.push(...splitByDay(s, e, dates, tz));
    }
    return out;
  }, [data, dates, tz]);

  return {
    status,
    data,
    tz,
    detected,
    view,
    offset,
    now,
    today,
    dates,
    segments,
    selectedDay,
    setTz,
    switchView(v) {
      setView(v);
      setOffset(0);
      setSelectedDay(null);
    },
    page(delta) {
      setOffset((o) => o + delta);
      setSelectedDay(null);
    },
    goToCurrent() {
      setOffset(0);
      setSelectedDay(null);
    },
    selectDay: setSelectedDay,
    retry: () => setAttempt((n) => n + 1),
    refreshWindows,
  };
}
