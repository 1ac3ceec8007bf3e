/**
 * The owner's weekly calendar preview (spec §2 Dashboard, §4 Dashboard calendar, §9 grid):
 * Monday first, 60 px per hour, at least 08–20 h widened by 2 h around rules and events,
 * availability blocks from the weekly rules (a date with overrides shows the overrides' windows
 * instead) plus the owner's events with their titles and the manual busy blocks (from the desktop
 * tray's "Busy for …", removable here).
 */
import { useCallback, useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { api, type AvailabilityRule, type CalendarEvent } from '@avail/shared/api/api-client.ts';
import { BUSINESS_HOURS, CALENDAR_PX_PER_HOUR, CACHE_FRESHNESS_MS, DASHBOARD_EVENTS_REFRESH_MS } from '@avail/shared/constants.ts';
import {
  addDays, dashboardHourRange, dateInZone, formatDayLabel, formatTime, formatWeekRange, hhmmToMinutes, pad2, splitByDay, weekDates,
} from '../../lib/time.ts';
import { registerReset, registerStaleOnSync, SYNC_COMPLETED_EVENT } from '../../data/data-store.ts';
import { useLocalBlocks, useLocalData, useLocalEvents, type BlockView } from '../../data/local-data.tsx';
import { deleteBlockLocal } from '@avail/shared/rx/local-writes.ts';
import { WhyBlockedDialog, type BlockedSource } from './why-blocked-dialog.tsx';

const DAY_MS = 86_400_000;

interface EventsCache {
  key: string;
  at: number;
  events: CalendarEvent[];
}
let eventsCache: EventsCache | null = null;
registerReset(() => {
  eventsCache = null;
});
// A completed sync makes the cached week stale even while the dashboard is not mounted (T-23).
registerStaleOnSync(() => {
  if (eventsCache) eventsCache = { ...eventsCache, at: 0 };
});

/** A date override as the preview needs it (availability-semantics.md: both times null = day off). */
export interface PreviewException {
  date?: string;
  start_time_local?: string | null;
  end_time_local?: string | null;
}

/**
 * Availability blocks of one date: its date overrides' windows when it has any (its weekly rules
 * are then ignored; a day off gives none), else the weekly rules of its weekday (0 = Monday).
 */
export function availabilityBlocksFor(date: string, weekday: number, rules: AvailabilityRule[], exceptions: PreviewException[]): { start: string; end: string; override: boolean }[] {
  const exc = exceptions.filter((e) => e.date === date);
  if (exc.length) {
    return exc
      .filter((e) => e.start_time_local && e.end_time_local)
      .map((e) => ({ start: e.start_time_local!, end: e.end_time_local!, override: true }))
      .sort((a, b) => a.start.localeCompare(b.start));
  }
  return rules.filter((r) => r.weekday === weekday).map((r) => ({ start: r.start_time_local, end: r.end_time_local, override: false }));
}

const NO_EXCEPTIONS: PreviewException[] = [];
const NO_BLOCKS: BlockView[] = [];

/** The owner's week grid with availability (date overrides applied), events and the controls. */
export function WeekCalendar({ rules, timezone, exceptions = NO_EXCEPTIONS }: { rules: AvailabilityRule[]; timezone: string; exceptions?: PreviewException[] }) {
  const [offset, setOffset] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const today = dateInZone(now, timezone);
  const dates = useMemo(() => weekDates(today, offset), [today, offset]);
  const startDate = addDays(dates[0], -3);
  const endDate = addDays(dates[6], 3);
  const rangeKey = `${startDate}..${endDate}`;
  const [restEvents, setEvents] = useState<CalendarEvent[]>(() => (eventsCache?.key === rangeKey ? eventsCache.events : []));
  const [loading, setLoading] = useState(false);
  // Events of the shown range (±3 days) from the device database once synced; REST until then.
  // A day of margin on both ends covers any zone offset; the grid places events by owner-local date.
  const local = useLocalData();
  const fromDevice = Boolean(local.data && local.synced);
  const localEvents = useLocalEvents(local.data, local.synced, Date.parse(`${startDate}T00:00:00Z`) - DAY_MS, Date.parse(`${endDate}T00:00:00Z`) + 2 * DAY_MS);
  const events = fromDevice && localEvents ? localEvents : restEvents;
  const busyBlocks = useLocalBlocks(local.data, local.synced, Date.parse(`${startDate}T00:00:00Z`) - DAY_MS, Date.parse(`${endDate}T00:00:00Z`) + 2 * DAY_MS) ?? NO_BLOCKS;
  const removeBlock = (b: BlockView) => {
    if (!local.data) return;
    deleteBlockLocal(local.data.db, local.data.deviceId, b.id).catch((e: unknown) => console.error('The busy block could not be removed', (e as Error)?.message));
  };
  const replication = local.data?.replication;
  // "Why is this time blocked?" (issue 14 item 6): the block whose source is shown, if any.
  const [why, setWhy] = useState<BlockedSource | null>(null);
  /** Props that make a block open its source on click, Enter or Space. */
  const openable = (source: BlockedSource & { kind: 'event' }) => ({
    role: 'button' as const,
    tabIndex: 0,
    'aria-label': `Why is this time blocked: ${source.title || 'Busy'}`,
    onClick: () => setWhy(source),
    onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        setWhy(source);
      }
    },
  });

  const fetchEvents = useCallback(
    async (force: boolean) => {
      if (replication && fromDevice) {
        // The device database is live (replication stream); a refresh asks it to re-sync now.
        if (force) replication.reconnect();
        return;
      }
      const c = eventsCache;
      if (!force && c && c.key === rangeKey && c.events.length && Date.now() - c.at < CACHE_FRESHNESS_MS) {
        setEvents(c.events);
        return;
      }
      setLoading(true);
      try {
        const { events: list } = await api.events(startDate, endDate);
        eventsCache = { key: rangeKey, at: Date.now(), events: list ?? [] };
        setEvents(list ?? []);
      } catch {
        setEvents([]);
      } finally {
        setLoading(false);
      }
    },
    [rangeKey, startDate, endDate, replication, fromDevice],
  );

  useEffect(() => {
    void fetchEvents(false);
  }, [fetchEvents]);

  useEffect(() => {
    const tick = setInterval(() => {
      setNow(Date.now());
      void fetchEvents(true);
    }, DASHBOARD_EVENTS_REFRESH_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void fetchEvents(true);
    };
    const onSynced = () => void fetchEvents(true);
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener(SYNC_COMPLETED_EVENT, onSynced);
    return () => {
      clearInterval(tick);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener(SYNC_COMPLETED_EVENT, onSynced);
    };
  }, [fetchEvents]);

  const layout = useMemo(() => {
    const timed: { ev: CalendarEvent; date: string; startMin: number; endMin: number }[] = [];
    const allDay: { ev: CalendarEvent; dates: string[] }[] = [];
    for (const ev of events) {
      const s = Date.parse(ev.start);
      const e = Date.parse(ev.end);
      if (!Number.isFinite(s) || !Number.isFinite(e)) continue;
      if (ev.all_day) {
        // All-day events arrive as the instants of the owner's local midnights (end exclusive).
        const startD = ev.start.length > 10 ? dateInZone(s, timezone) : ev.start.slice(0, 10);
        const endD = ev.end.length > 10 ? dateInZone(e, timezone) : ev.end.slice(0, 10);
        const covered = dates.filter((d) => d >= startD && (d < endD || (d === startD && endD <= startD)));
        if (covered.length) allDay.push({ ev, dates: covered });
        continue;
      }
      for (const seg of splitByDay(s, e, dates, timezone)) timed.push({ ev, date: seg.date, startMin: seg.startMin, endMin: seg.endMin });
    }
    const blocks = dates.map((d, col) => availabilityBlocksFor(d, col, rules, exceptions));
    const busy: { block: BlockView; date: string; startMin: number; endMin: number }[] = [];
    for (const block of busyBlocks) {
      for (const seg of splitByDay(block.start_ms, block.end_ms, dates, timezone)) busy.push({ block, date: seg.date, startMin: seg.startMin, endMin: seg.endMin });
    }
    const items: [number, number][] = [
      ...blocks.flat().map((b) => [hhmmToMinutes(b.start), hhmmToMinutes(b.end)] as [number, number]),
      ...timed.map((t) => [t.startMin, t.endMin] as [number, number]),
      ...busy.map((t) => [t.startMin, t.endMin] as [number, number]),
    ];
    return { timed, allDay, blocks, busy, range: dashboardHourRange(items) };
  }, [events, rules, exceptions, dates, timezone, busyBlocks]);

  const { range } = layout;
  const hours = Array.from({ length: range.end - range.start }, (_, i) => range.start + i);
  const height = (range.end - range.start) * CALENDAR_PX_PER_HOUR;
  const top = (min: number) => ((min - range.start * 60) / 60) * CALENDAR_PX_PER_HOUR;
  const nowDate = dateInZone(now, timezone);
  const nowParts = formatTime(now, timezone).split(':').map(Number);
  const nowMin = nowParts[0] * 60 + nowParts[1];

  return (
    <section className="card week-calendar" aria-labelledby="week-cal-title">
      <div className="card-header wrap">
        <div>
          <h2 id="week-cal-title" className="card-title">
            Your week
          </h2>
          <p className="muted small">
            {formatWeekRange(dates)} · {timezone.replace(/_/g, ' ')}
          </p>
        </div>
        <div className="toolbar">
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setOffset(0)} disabled={offset === 0}>
            Go to current week
          </button>
          <button type="button" className="icon-button bordered" aria-label="Previous week" onClick={() => setOffset((o) => o - 1)}>
            ‹
          </button>
          <button type="button" className="icon-button bordered" aria-label="Next week" onClick={() => setOffset((o) => o + 1)}>
            ›
          </button>
          <button type="button" className="icon-button bordered" aria-label="Refresh events" onClick={() => void fetchEvents(true)} disabled={loading}>
            <span className={loading ? 'spin' : ''}>↻</span>
          </button>
        </div>
      </div>
      <div className="legend small">
        <span className="legend-item">
          <span className="swatch swatch-available" /> Available
        </span>
        <span className="legend-item">
          <span className="swatch swatch-event" /> Busy (your events — visible only to you)
        </span>
        {layout.busy.length > 0 && (
          <span className="legend-item">
            <span className="swatch swatch-block" /> Busy block (set by you)
          </span>
        )}
      </div>
      {/* Focusable so keyboard users can scroll the week sideways on narrow screens. */}
      <div className="cal-scroll" tabIndex={0} role="region" aria-label="Week calendar">
        <div className="cal-grid" style={{ ['--cal-height' as string]: `${height}px` }}>
          <div className="cal-corner" />
          {dates.map((d) => {
            const l = formatDayLabel(d);
            return (
              <div key={d} className={`cal-day-head${d === nowDate ? ' today' : ''}`}>
                <span className="cal-weekday">{l.weekday}</span>
                <span className="cal-date">{l.day}</span>
              </div>
            );
          })}
          {layout.allDay.length > 0 && (
            <>
              <div className="cal-allday-label small muted">All day</div>
              {dates.map((d) => (
                <div key={d} className="cal-allday">
                  {layout.allDay
                    .filter((a) => a.dates.includes(d))
                    .map((a) => (
                      <div key={String(a.ev.id)} className="cal-event allday" title={a.ev.title} {...openable({ kind: 'event', id: a.ev.id, title: a.ev.title })}>
                        {a.ev.title}
                      </div>
                    ))}
                </div>
              ))}
            </>
          )}
          <div className="cal-gutter" style={{ height }}>
            {hours.map((h) => (
              <div key={h} className="cal-hour-label" style={{ top: (h - range.start) * CALENDAR_PX_PER_HOUR }}>
                {pad2(h)}:00
              </div>
            ))}
          </div>
          {dates.map((d, col) => (
            <div key={d} className="cal-col" style={{ height }} data-date={d}>
              {hours.map((h) => (
                <div
                  key={h}
                  className={`cal-hour${h >= BUSINESS_HOURS.start && h < BUSINESS_HOURS.end ? '' : ' off-hours'}`}
                  style={{ top: (h - range.start) * CALENDAR_PX_PER_HOUR, height: CALENDAR_PX_PER_HOUR }}
                />
              ))}
              {layout.blocks[col].map((b, i) => {
                const s = hhmmToMinutes(b.start);
                const e = hhmmToMinutes(b.end);
                return (
                  <div
                    key={`r${i}`}
                    className={`cal-available${b.override ? ' override' : ''}`}
                    style={{ top: top(s), height: ((e - s) / 60) * CALENDAR_PX_PER_HOUR }}
                    title={b.override ? 'Date override' : undefined}
                  >
                    <span>
                      {b.start}–{b.end}
                      {b.override && ' (override)'}
                    </span>
                  </div>
                );
              })}
              {layout.timed
                .filter((t) => t.date === d)
                .map((t) => (
                  <div
                    key={`${t.ev.id}-${t.date}`}
                    className="cal-event"
                    style={{ top: top(t.startMin), height: Math.max(18, ((t.endMin - t.startMin) / 60) * CALENDAR_PX_PER_HOUR) }}
                    title={`${t.ev.title} (${formatTime(Date.parse(t.ev.start), timezone)}–${formatTime(Date.parse(t.ev.end), timezone)})`}
                    {...openable({ kind: 'event', id: t.ev.id, title: t.ev.title })}
                  >
                    <strong>{t.ev.title || 'Busy'}</strong>
                    <span>
                      {formatTime(Date.parse(t.ev.start), timezone)}–{formatTime(Date.parse(t.ev.end), timezone)}
                    </span>
                  </div>
                ))}
              {layout.busy
                .filter((t) => t.date === d)
                .map((t) => {
                  const label = `${formatTime(t.block.start_ms, timezone)}–${formatTime(t.block.end_ms, timezone)}`;
                  return (
                    <div
                      key={`b-${t.block.id}-${t.date}`}
                      className={`cal-block${t.block.pending ? ' pending' : ''}`}
                      style={{ top: top(t.startMin), height: Math.max(22, ((t.endMin - t.startMin) / 60) * CALENDAR_PX_PER_HOUR) }}
                      data-testid="busy-block"
                    >
                      <button type="button" className="cal-block-why" onClick={() => setWhy({ kind: 'manual', startMs: t.block.start_ms, endMs: t.block.end_ms, note: t.block.note ?? null })}>
                        Busy block
                      </button>
                      <span>
                        {label}
                        {t.block.pending && ' · pending sync'}
                      </span>
                      {t.block.note && <span className="cal-block-note">{t.block.note}</span>}
                      <button type="button" className="cal-block-remove" aria-label={`Remove busy block ${label}`} onClick={() => removeBlock(t.block)}>
                        ×
                      </button>
                    </div>
                  );
                })}
              {d === nowDate && nowMin >= range.start * 60 && nowMin <= range.end * 60 && <div className="now-line" style={{ top: top(nowMin) }} aria-hidden="true" />}
            </div>
          ))}
        </div>
      </div>
      <WhyBlockedDialog source={why} timezone={timezone} onClose={() => setWhy(null)} />
    </section>
  );
}
