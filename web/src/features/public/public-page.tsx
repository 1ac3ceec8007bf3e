/**
 * The visitor's public availability page (spec §2 Public availability page, §4 Public page,
 * §8 public messages; issue 4: propose a time). Light on purpose: only the API client, time helpers,
 * a small tooltip and the propose dialog (a native <dialog>). Shows free windows
 * only, in the visitor's own (changeable) zone; a free window can be proposed to the owner by
 * e-mail, nothing is ever booked.
 *
 * Server-rendered (issue 11, P3): with `initial` (the server's PublicBoot) the first render uses the
 * server's inputs — its answer, the owner's zone, its clock, no browser-only values — so it hydrates
 * the server's markup exactly; right after, the page takes the browser's clock and, when the
 * visitor's detected zone differs, re-renders in it (keeping the server's windows on screen until
 * the new answer arrives).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError, type PublicAvailability } from '@avail/shared/api/api-client.ts';
import { PUBLIC_CLOCK_TICK_MS, TIMEZONE_GROUPS } from '@avail/shared/constants.ts';
import {
  addDays, browserTimeZone, dateInZone, daysInMonth, formatDayShort, formatMonthLabel, formatTime, formatWeekRange, monthStart,
  splitByDay, weekDates, zonedToUtc, type DaySegment,
} from '../../lib/time.ts';
import { MonthGrid } from './month-grid.tsx';
import { zoneChangeNotices } from './zone-change-notice.ts';
import type { PublicBoot } from './public-boot.ts';
import { ProposeDialog, type ProposeTarget } from './propose-dialog.tsx';
import { WeekGrid } from './week-grid.tsx';
import './public.css';

type Status = 'loading' | 'loaded' | 'not_found' | 'server_error' | 'network_error';
const MESSAGES: Record<Exclude<Status, 'loading' | 'loaded'>, string> = {
  not_found: 'This availability link could not be found.',
  server_error: 'Something went wrong on our end. Please try again later.',
  network_error: 'Unable to connect. Please check your internet connection and try again.',
};

/**
 * The public page of `slug`: states, week/month views, visitor zone, and the propose dialog.
 * `linkKey`: the personal link's token the page was opened with (`?key=`), sent with every call.
 * `embed`: the compact layout shown inside another site's iframe (embed.js): no site header, links
 * open in a new tab.
 */
export default function PublicPage({ slug, linkKey, embed = false, initial }: { slug: string; linkKey?: string; embed?: boolean; initial?: PublicBoot }) {
  const [tz, setTz] = useState(() => initial?.tz ?? browserTimeZone());
  const [view, setView] = useState<'week' | 'month'>('week');
  const [offset, setOffset] = useState(0);
  const [now, setNow] = useState(() => initial?.now ?? Date.now());
  const [status, setStatus] = useState<Status>(initial ? 'loaded' : 'loading');
  const [data, setData] = useState<PublicAvailability | null>(initial?.data ?? null);
  const [retry, setRetry] = useState(0);
  const [selectedDay, setSelectedDay] = useState<string | null>(null);
  const [target, setTarget] = useState<ProposeTarget | null>(null);
  // Browser-only values (detected zone, screen width) join after hydration; null/false before.
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
    if (skipFetch.current === `${range}|${tz}` && retry === 0) {
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
  }, [slug, linkKey, range, tz, retry]);

  // After a 'no longer free' answer: refetch the shown windows without leaving the loaded state.
  const refreshWindows = useCallback(() => {
    api
      .publicAvailability(slug, range, tz, undefined, linkKey)
      .then((res) => res?.availability && setData(res))
      .catch(() => undefined);
  }, [slug, linkKey, range, tz]);

  useEffect(() => {
    document.title = data ? `${data.user_name}'s Availability · Avail` : 'Availability · Avail';
    let meta = document.querySelector('meta[name="robots"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.setAttribute('name', 'robots');
      document.head.appendChild(meta);
    }
    meta.setAttribute('content', 'noindex');
  }, [data]);

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

  const zones = useMemo(() => {
    const all = TIMEZONE_GROUPS.flatMap((g) => g.zones);
    return { groups: TIMEZONE_GROUPS, extra: [detected ?? tz, tz].filter((z, i, a) => !all.includes(z) && a.indexOf(z) === i) };
  }, [tz, detected]);

  const name = data?.user_name ?? '';
  const isCurrent = offset === 0;
  const propose = setTarget;
  const switchView = (v: 'week' | 'month') => {
    setView(v);
    setOffset(0);
    setSelectedDay(null);
  };

  if (status === 'not_found' || (status !== 'loading' && status !== 'loaded' && !data)) {
    return (
      <div className={embed ? 'pub-page pub-embed' : 'pub-page'}>
        {!embed && <PublicHeader />}
        <main className="pub-state card" role={status === 'not_found' ? undefined : 'alert'}>
          <h1>{status === 'not_found' ? 'Link not found' : status === 'network_error' ? 'Connection problem' : 'Something went wrong'}</h1>
          <p data-testid="public-state" data-state={status}>
            {MESSAGES[status as keyof typeof MESSAGES]}
          </p>
          {status !== 'not_found' && (
            <button type="button" className="btn btn-primary" onClick={() => setRetry((n) => n + 1)}>
              Try again
            </button>
          )}
        </main>
      </div>
    );
  }

  return (
    <>
      <div className={embed ? 'pub-page pub-embed' : 'pub-page'}>
        {!embed && <PublicHeader />}
        <main className="pub-main">
          <div className="pub-title-row">
            <div>
              <h1 className="pub-title">{data ? `${name}'s Availability` : <span className="skeleton skeleton-title" />}</h1>
              {data && (
                <p className="pub-intro">
                  Pick a free time below and propose it to {name} by email — {name} will confirm it with you. Nothing is booked automatically.
                </p>
              )}
            </div>
            <div className="segmented" role="group" aria-label="View">
              <button type="button" aria-pressed={view === 'week'} className={view === 'week' ? 'active' : ''} onClick={() => switchView('week')}>
                Week
              </button>
              <button type="button" aria-pressed={view === 'month'} className={view === 'month' ? 'active' : ''} onClick={() => switchView('month')}>
                Month
              </button>
            </div>
          </div>

          <div className="pub-toolbar">
            <div className="pub-nav">
              <button
                type="button"
                className="icon-button bordered"
                aria-label={view === 'week' ? 'Previous week' : 'Previous month'}
                onClick={() => {
                  setOffset((o) => o - 1);
                  setSelectedDay(null);
                }}
              >
                ‹
              </button>
              <span className="pub-range" aria-live="polite" data-testid="pub-range">
                {view === 'week' ? formatWeekRange(dates) : formatMonthLabel(dates[0])}
              </span>
              <button
                type="button"
                className="icon-button bordered"
                aria-label={view === 'week' ? 'Next week' : 'Next month'}
                onClick={() => {
                  setOffset((o) => o + 1);
                  setSelectedDay(null);
                }}
              >
                ›
              </button>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                disabled={isCurrent}
                onClick={() => {
                  setOffset(0);
                  setSelectedDay(null);
                }}
              >
                {view === 'week' ? 'Go to current week' : 'Go to current month'}
              </button>
            </div>
            <div className="pub-tz">
              <label htmlFor="pub-tz">Times shown in</label>
              <select id="pub-tz" value={tz} onChange={(e) => setTz(e.target.value)} aria-describedby="pub-tz-hint">
                {zones.extra.map((z) => (
                  <option key={z} value={z}>
                    {z.replace(/_/g, ' ')}
                    {z === detected ? ' (detected)' : ''}
                  </option>
                ))}
                {zones.groups.map((g) => (
                  <optgroup key={g.group} label={g.group}>
                    {g.zones.map((z) => (
                      <option key={z} value={z}>
                        {z.replace(/_/g, ' ')}
                        {z === detected ? ' (detected)' : ''}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
              <span id="pub-tz-hint" className="sr-only">
                Your time zone. Change it to see the free times in another zone.
              </span>
            </div>
          </div>

          {status === 'loading' && (
            <div className="pub-loading" role="status">
              <span className="spinner" /> Loading availability...
            </div>
          )}
          {status === 'loaded' &&
            data &&
            zoneChangeNotices(data.zone_changes, data.user_timezone, tz).map((text) => (
              <p key={text} className="pub-zone-change muted small" role="note" data-testid="pub-zone-change">
                {text}
              </p>
            ))}
          {status === 'loaded' && data?.stale && (
            <p className="pub-stale" role="status" data-testid="pub-stale">
              {staleNotice(data.as_of ?? null, tz)}
            </p>
          )}
          {status === 'loaded' && data && view === 'week' && <WeekGrid dates={dates} segments={segments} tz={tz} now={now} today={today} onPropose={propose} />}
          {status === 'loaded' && data && view === 'month' && (
            <MonthGrid dates={dates} segments={segments} today={today} tz={tz} selected={selectedDay} onSelect={setSelectedDay} onPropose={propose} />
          )}
          {status === 'loaded' && data && view === 'week' && <FreeList dates={dates} segments={segments} tz={tz} narrow={detected !== null && window.innerWidth < 560} onPropose={propose} />}
          {data && data.user_timezone && data.user_timezone !== tz && (
            <p className="muted small pub-owner-tz">
              {name} is based in {data.user_timezone.replace(/_/g, ' ')}. All times above are in {tz.replace(/_/g, ' ')}.
            </p>
          )}
        </main>
        <footer className="pub-footer">
          {embed ? (
            <>
              Powered by{' '}
              <a href={`/${encodeURIComponent(slug)}${linkKey ? `?key=${encodeURIComponent(linkKey)}` : ''}`} target="_blank" rel="noopener noreferrer">
                Avail
              </a>{' '}
              · only free times are shown
            </>
          ) : (
            <>
              Powered by <a href="/">Avail</a> · only free times are shown
            </>
          )}
        </footer>
      </div>
      {data && <ProposeDialog slug={slug} linkKey={linkKey} ownerName={name} tz={tz} target={target} onClose={() => setTarget(null)} onStale={refreshWindows} />}
    </>
  );
}

/** The notice shown when the owner's calendars may be out of date (issue 14: honest freshness). */
export function staleNotice(asOf: string | null, tz: string): string {
  if (!asOf) return 'Availability may be out of date: some of these calendars could not be checked yet.';
  const ms = Date.parse(asOf);
  return `Availability may be out of date (last checked ${formatDayShort(dateInZone(ms, tz))} at ${formatTime(ms, tz)}).`;
}

function PublicHeader() {
  return (
    <header className="pub-header">
      <a className="logo" href="/" aria-label="Avail">
        <svg className="logo-mark" viewBox="0 0 32 32" aria-hidden="true">
          <rect width="32" height="32" rx="8" fill="currentColor" />
          <path d="M9 17l5 5 9-11" stroke="white" strokeWidth="3.5" fill="none" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="logo-text">Avail</span>
      </a>
    </header>
  );
}

/** The week's windows as a list; open at first on narrow screens (known only in the browser). */
function FreeList({ dates, segments, tz, narrow, onPropose }: { dates: string[]; segments: DaySegment[]; tz: string; narrow: boolean; onPropose: (t: ProposeTarget) => void }) {
  if (!dates.length || !segments.length) return null;
  return (
    <details className="pub-list" open={narrow}>
      <summary>List of free times</summary>
      <ul>
        {dates.map((d) => {
          const segs = segments.filter((s) => s.date === d);
          if (!segs.length) return null;
          return (
            <li key={d}>
              <strong>{formatDayShort(d)}</strong>
              <span className="pub-list-windows">
                {segs.map((s) => {
                  const text = `${formatTime(s.startMs, tz)}–${formatTime(s.endMs, tz)}`;
                  return (
                    <button
                      key={s.startMs}
                      type="button"
                      className="btn btn-secondary btn-sm"
                      aria-label={`Propose a time on ${formatDayShort(d)}, ${text}`}
                      onClick={(e) => onPropose({ startMs: s.startMs, endMs: s.endMs, returnFocus: e.currentTarget })}
                    >
                      {text}
                    </button>
                  );
                })}
              </span>
            </li>
          );
        })}
      </ul>
    </details>
  );
}
