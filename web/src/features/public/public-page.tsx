/**
 * The visitor's public availability page (spec §2 Public availability page, §4 Public page,
 * §8 public messages). Light on purpose: only the API client, time helpers and radix Tooltip.
 * Shows free windows only, in the visitor's own (changeable) zone; no booking control.
 */
import { useEffect, useMemo, useState } from 'react';
import { api, ApiError, type PublicAvailability } from '@avail/shared/api/api-client.ts';
import { PUBLIC_CLOCK_TICK_MS, TIMEZONE_GROUPS } from '@avail/shared/constants.ts';
import {
  addDays, browserTimeZone, dateInZone, daysInMonth, formatDayLabel, formatMonthLabel, formatTime, formatWeekRange, monthStart,
  pad2, publicHourRange, splitByDay, weekDates, weekdayMon0, zonedParts, type DaySegment,
} from '../../lib/time.ts';
import { Tooltip, TooltipProvider } from '../../components/ui/tooltip.tsx';
import './public.css';

type Status = 'loading' | 'loaded' | 'not_found' | 'server_error' | 'network_error';
const PX_PER_HOUR = 48;
const MESSAGES: Record<Exclude<Status, 'loading' | 'loaded'>, string> = {
  not_found: 'This availability link could not be found.',
  server_error: 'Something went wrong on our end. Please try again later.',
  network_error: 'Unable to connect. Please check your internet connection and try again.',
};

export default function PublicPage({ slug }: { slug: string }) {
  const [tz, setTz] = useState(browserTimeZone);
  const [view, setView] = useState<'week' | 'month'>('week');
  const [offset, setOffset] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [status, setStatus] = useState<Status>('loading');
  const [data, setData] = useState<PublicAvailability | null>(null);
  const [retry, setRetry] = useState(0);

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

  useEffect(() => {
    const ctrl = new AbortController();
    setStatus('loading');
    api
      .publicAvailability(slug, range, tz, ctrl.signal)
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
  }, [slug, range, tz, retry]);

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
    for (const w of data.availability.windows ?? []) {
      const s = Date.parse(w.start);
      const e = Date.parse(w.end);
      if (Number.isFinite(s) && Number.isFinite(e) && e > s) out.push(...splitByDay(s, e, dates, tz));
    }
    return out;
  }, [data, dates, tz]);

  const zones = useMemo(() => {
    const all = TIMEZONE_GROUPS.flatMap((g) => g.zones);
    const detected = browserTimeZone();
    return { groups: TIMEZONE_GROUPS, extra: [detected, tz].filter((z, i, a) => !all.includes(z) && a.indexOf(z) === i) };
  }, [tz]);

  const name = data?.user_name ?? '';
  const isCurrent = offset === 0;

  if (status === 'not_found' || (status !== 'loading' && status !== 'loaded' && !data)) {
    return (
      <div className="pub-page">
        <PublicHeader />
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
    <TooltipProvider delayDuration={100}>
      <div className="pub-page">
        <PublicHeader />
        <main className="pub-main">
          <div className="pub-title-row">
            <div>
              <h1 className="pub-title">{data ? `${name}'s Availability` : <span className="skeleton skeleton-title" />}</h1>
              {data && (
                <p className="pub-intro">
                  These are the times {name} is free. Pick a time that works for you and propose it to {name} by email — {name} will then
                  confirm it with you. Nothing is booked on this page.
                </p>
              )}
            </div>
            <div className="segmented" role="group" aria-label="View">
              <button type="button" aria-pressed={view === 'week'} className={view === 'week' ? 'active' : ''} onClick={() => { setView('week'); setOffset(0); }}>
                Week
              </button>
              <button type="button" aria-pressed={view === 'month'} className={view === 'month' ? 'active' : ''} onClick={() => { setView('month'); setOffset(0); }}>
                Month
              </button>
            </div>
          </div>

          <div className="pub-toolbar">
            <div className="pub-nav">
              <button type="button" className="icon-button bordered" aria-label={view === 'week' ? 'Previous week' : 'Previous month'} onClick={() => setOffset((o) => o - 1)}>
                ‹
              </button>
              <span className="pub-range" aria-live="polite">
                {view === 'week' ? formatWeekRange(dates) : formatMonthLabel(dates[0])}
              </span>
              <button type="button" className="icon-button bordered" aria-label={view === 'week' ? 'Next week' : 'Next month'} onClick={() => setOffset((o) => o + 1)}>
                ›
              </button>
              <button type="button" className="btn btn-secondary btn-sm" disabled={isCurrent} onClick={() => setOffset(0)}>
                {view === 'week' ? 'Go to current week' : 'Go to current month'}
              </button>
            </div>
            <div className="pub-tz">
              <label htmlFor="pub-tz">Times shown in</label>
              <select id="pub-tz" value={tz} onChange={(e) => setTz(e.target.value)}>
                {zones.extra.map((z) => (
                  <option key={z} value={z}>
                    {z.replace(/_/g, ' ')}
                    {z === browserTimeZone() ? ' (detected)' : ''}
                  </option>
                ))}
                {zones.groups.map((g) => (
                  <optgroup key={g.group} label={g.group}>
                    {g.zones.map((z) => (
                      <option key={z} value={z}>
                        {z.replace(/_/g, ' ')}
                        {z === browserTimeZone() ? ' (detected)' : ''}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </div>
          </div>

          {status === 'loading' && (
            <div className="pub-loading" role="status">
              <span className="spinner" /> Loading availability...
            </div>
          )}
          {status === 'loaded' && data && view === 'week' && <WeekGrid dates={dates} segments={segments} tz={tz} now={now} today={today} />}
          {status === 'loaded' && data && view === 'month' && (
            <MonthGrid dates={dates} segments={segments} today={today} onPick={(d) => { setView('week'); setOffset(weekOffset(today, d)); }} />
          )}
          {status === 'loaded' && data && <FreeList dates={view === 'week' ? dates : []} segments={segments} tz={tz} />}
          {data && data.user_timezone && data.user_timezone !== tz && (
            <p className="muted small pub-owner-tz">
              {name} is based in {data.user_timezone.replace(/_/g, ' ')}. All times above are in {tz.replace(/_/g, ' ')}.
            </p>
          )}
        </main>
        <footer className="pub-footer">
          Powered by <a href="/">Avail</a> · only free times are shown
        </footer>
      </div>
    </TooltipProvider>
  );
}

function weekOffset(today: string, date: string): number {
  const a = Date.parse(addDays(today, -weekdayMon0(today)));
  const b = Date.parse(addDays(date, -weekdayMon0(date)));
  return Math.round((b - a) / (7 * 86_400_000));
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

function WeekGrid({ dates, segments, tz, now, today }: { dates: string[]; segments: DaySegment[]; tz: string; now: number; today: string }) {
  const range = publicHourRange(segments.map((s) => [s.startMin, s.endMin] as const));
  const hours = Array.from({ length: range.end - range.start }, (_, i) => range.start + i);
  const height = hours.length * PX_PER_HOUR;
  const top = (min: number) => ((min - range.start * 60) / 60) * PX_PER_HOUR;
  const np = zonedParts(now, tz);
  const nowMin = np.hour * 60 + np.minute;
  return (
    <div className="pub-grid-scroll">
      <div className="pub-grid" role="group" aria-label="Week of free times">
        <div className="pub-corner" />
        {dates.map((d) => {
          const l = formatDayLabel(d);
          return (
            <div key={d} className={`pub-day-head${d === today ? ' today' : ''}`}>
              <span>{l.weekday}</span>
              <strong>{l.day}</strong>
            </div>
          );
        })}
        <div className="pub-gutter" style={{ height }}>
          {hours.map((h) => (
            <div key={h} className="pub-hour-label" style={{ top: (h - range.start) * PX_PER_HOUR }}>
              {pad2(h)}:00
            </div>
          ))}
        </div>
        {dates.map((d) => (
          <div key={d} className={`pub-col${d < today ? ' past' : ''}`} style={{ height, backgroundSize: `100% ${PX_PER_HOUR}px` }}>
            {segments
              .filter((s) => s.date === d)
              .map((s) => {
                const label = `${formatTime(s.startMs, tz)} – ${formatTime(s.endMs, tz)}`;
                return (
                  <Tooltip key={`${s.startMs}`} content="Hey, I'm free here">
                    <button
                      type="button"
                      className="pub-slot"
                      style={{ top: top(s.startMin), height: Math.max(14, ((s.endMin - s.startMin) / 60) * PX_PER_HOUR) }}
                      aria-label={`Free ${formatDayLabel(d).weekday} ${label}`}
                    >
                      <span>{label}</span>
                    </button>
                  </Tooltip>
                );
              })}
            {d === today && nowMin >= range.start * 60 && nowMin <= range.end * 60 && (
              <div className="now-line" style={{ top: top(nowMin) }} data-testid="now-line" aria-hidden="true" />
            )}
          </div>
        ))}
      </div>
      {segments.length === 0 && <p className="pub-empty">No free times this week. Try the next week.</p>}
    </div>
  );
}

function MonthGrid({ dates, segments, today, onPick }: { dates: string[]; segments: DaySegment[]; today: string; onPick: (d: string) => void }) {
  const lead = weekdayMon0(dates[0]);
  const free = new Map<string, number>();
  for (const s of segments) free.set(s.date, (free.get(s.date) ?? 0) + (s.endMin - s.startMin));
  return (
    <div className="pub-month" role="group" aria-label="Month of free times">
      {['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((d) => (
        <div key={d} className="pub-month-head">
          {d}
        </div>
      ))}
      {Array.from({ length: lead }, (_, i) => (
        <div key={`lead${i}`} className="pub-month-cell empty" />
      ))}
      {dates.map((d) => {
        const mins = free.get(d) ?? 0;
        return (
          <button
            type="button"
            key={d}
            className={`pub-month-cell${d === today ? ' today' : ''}${d < today ? ' past' : ''}`}
            onClick={() => onPick(d)}
            aria-label={`${d}: ${mins ? `${Math.round((mins / 60) * 10) / 10} free hours` : 'no free time'}`}
          >
            <span className="pub-month-day">{Number(d.slice(8))}</span>
            {mins > 0 && <span className="dot" aria-hidden="true" />}
          </button>
        );
      })}
    </div>
  );
}

function FreeList({ dates, segments, tz }: { dates: string[]; segments: DaySegment[]; tz: string }) {
  if (!dates.length || !segments.length) return null;
  return (
    <details className="pub-list" open={typeof window !== 'undefined' && window.innerWidth < 560}>
      <summary>List of free times</summary>
      <ul>
        {dates.map((d) => {
          const segs = segments.filter((s) => s.date === d);
          if (!segs.length) return null;
          const l = formatDayLabel(d);
          return (
            <li key={d}>
              <strong>
                {l.weekday} {l.day} {l.month}
              </strong>
              : {segs.map((s) => `${formatTime(s.startMs, tz)}–${formatTime(s.endMs, tz)}`).join(', ')}
            </li>
          );
        })}
      </ul>
    </details>
  );
}
