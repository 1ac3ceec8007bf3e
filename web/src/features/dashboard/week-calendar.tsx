/**
 * The owner's weekly calendar preview (spec §2 Dashboard, §4 Dashboard calendar, §9 grid):
 * Monday first (or the owner's chosen first day), 60 px per hour, at least 08–20 h widened by 2 h around rules and events,
 * availability blocks from the weekly rules (a date with overrides shows the overrides' windows
 * instead) plus the owner's events with their titles and the manual busy blocks (from the desktop
 * tray's "Busy for …", removable here). The seams: the data (use-week-events.ts), the layout
 * (week-layout.ts, pure), one date's column (week-day-column.tsx); this file is the card, its
 * toolbar, legend, day heads, all-day row and hour gutter. Dates and times follow the owner's
 * format choice (useOwnerFormats: locale, 12/24 h, first day of the week; issue 22 item 3).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { AvailabilityRule } from '@avail/shared/api/api-client.ts';
import { CALENDAR_PX_PER_HOUR } from '@avail/shared/constants.ts';
import { useAlert } from '../../components/ui/alert.tsx';
import { useOwnerFormats } from '../../data/use-owner-formats.ts';
import { addDays, dateInZone, formatTime, weekOf } from '../../lib/time.ts';
import { useWeekEvents } from './use-week-events.ts';
import { openableProps, WeekDayColumn } from './week-day-column.tsx';
import { weekLayout, type PreviewException } from './week-layout.ts';
import { WhyBlockedDialog, type BlockedSource } from './why-blocked-dialog.tsx';
import { weekScrollState, weekScrollStep, type WeekScrollState } from './week-scroll.ts';

export { availabilityBlocksFor, type PreviewException } from './week-layout.ts';

const NO_EXCEPTIONS: PreviewException[] = [];

/** The owner's week grid with availability (date overrides applied), events and the controls. */
export function WeekCalendar({ rules, timezone, exceptions = NO_EXCEPTIONS }: { rules: AvailabilityRule[]; timezone: string; exceptions?: PreviewException[] }) {
  const [offset, setOffset] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const today = dateInZone(now, timezone);
  const fmt = useOwnerFormats();
  const dates = useMemo(() => weekOf(addDays(today, offset * 7), fmt.weekStart), [today, offset, fmt.weekStart]);
  // Events of the shown range (±3 days): see use-week-events.ts.
  // A busy block that could not be removed is told as an error alert above the grid.
  const alert = useAlert();
  const showAlert = alert.show;
  const showRemoveError = useCallback((message: string) => void showAlert('error', message), [showAlert]);
  const { events, busyBlocks, loading, refresh, removeBlock } = useWeekEvents(addDays(dates[0], -3), addDays(dates[6], 3), setNow, showRemoveError);
  // "Why is this time blocked?" (issue 14 item 6): the block whose source is shown, if any.
  const [why, setWhy] = useState<BlockedSource | null>(null);
  const layout = useMemo(() => weekLayout({ events, rules, exceptions, dates, timezone, busyBlocks }), [events, rules, exceptions, dates, timezone, busyBlocks]);

  const { range } = layout;
  const hours = Array.from({ length: range.end - range.start }, (_, i) => range.start + i);
  const height = (range.end - range.start) * CALENDAR_PX_PER_HOUR;
  const nowDate = dateInZone(now, timezone);
  const nowParts = formatTime(now, timezone).split(':').map(Number);
  const nowMin = nowParts[0] * 60 + nowParts[1];
  const scroll = useWeekScroll(dates[0], dates.indexOf(nowDate));

  return (
    <section className="card week-calendar" aria-labelledby="week-cal-title">
      <div className="card-header wrap">
        <div>
          <h2 id="week-cal-title" className="card-title">
            Your week
          </h2>
          <p className="muted small">
            {fmt.dateRange(dates[0], dates[6])} · {timezone.replace(/_/g, ' ')}
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
          <button type="button" className="icon-button bordered" aria-label="Refresh events" onClick={() => void refresh(true)} disabled={loading}>
            <span className={loading ? 'spin' : ''}>↻</span>
          </button>
        </div>
      </div>
      {alert.node}
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
      {/* Narrow screens (issue 23 item 5): the week scrolls sideways; a hint, arrows and faded edges say so. */}
      {scroll.state.overflows && (
        <div className="cal-scroll-hint small" data-testid="week-scroll-hint">
          <span className="muted">Swipe sideways to see the whole week.</span>
          <span className="toolbar">
            <button type="button" className="icon-button bordered" aria-label="Earlier days" disabled={!scroll.state.moreBefore} onClick={() => scroll.by(-1)}>
              ‹
            </button>
            <button type="button" className="icon-button bordered" aria-label="Later days" disabled={!scroll.state.moreAfter} onClick={() => scroll.by(1)}>
              ›
            </button>
          </span>
        </div>
      )}
      <div className={`cal-scroll-wrap${scroll.state.moreBefore ? ' more-before' : ''}${scroll.state.moreAfter ? ' more-after' : ''}`}>
      {/* Focusable so keyboard users can scroll the week sideways on narrow screens. */}
      <div className="cal-scroll" tabIndex={0} role="region" aria-label="Week calendar" ref={scroll.ref} onScroll={scroll.update}>
        <div className="cal-grid" style={{ ['--cal-height' as string]: `${height}px` }}>
          <div className="cal-corner" />
          {dates.map((d) => (
            <div key={d} className={`cal-day-head${d === nowDate ? ' today' : ''}`} data-date={d}>
              <span className="cal-weekday">{fmt.weekdayShort(d)}</span>
              <span className="cal-date">{Number(d.slice(8))}</span>
            </div>
          ))}
          {layout.allDay.length > 0 && (
            <>
              <div className="cal-allday-label small muted">All day</div>
              {dates.map((d) => (
                <div key={d} className="cal-allday">
                  {layout.allDay
                    .filter((a) => a.dates.includes(d))
                    .map((a) => (
                      <div key={String(a.ev.id)} className="cal-event allday" title={a.ev.title} {...openableProps({ kind: 'event', id: a.ev.id, title: a.ev.title }, setWhy)}>
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
                {fmt.hourLabel(h)}
              </div>
            ))}
          </div>
          {dates.map((d, col) => (
            <WeekDayColumn key={d} date={d} col={col} layout={layout} timezone={timezone} fmt={fmt} nowMin={d === nowDate ? nowMin : null} onWhy={setWhy} onRemove={removeBlock} />
          ))}
        </div>
      </div>
      </div>
      <WhyBlockedDialog source={why} timezone={timezone} onClose={() => setWhy(null)} />
    </section>
  );
}

/**
 * The sideways scroll of the week grid: which edges hide days (on scroll and resize), arrows that
 * move by whole days, and on a new week a narrow screen starts at today's column (or Monday).
 */
function useWeekScroll(weekKey: string, todayCol: number): { ref: RefObject<HTMLDivElement | null>; state: WeekScrollState; update: () => void; by: (dir: 1 | -1) => void } {
  const ref = useRef<HTMLDivElement | null>(null);
  const [state, setState] = useState<WeekScrollState>({ overflows: false, moreBefore: false, moreAfter: false });
  const update = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const next = weekScrollState(el.scrollLeft, el.clientWidth, el.scrollWidth);
    setState((s) => (s.overflows === next.overflows && s.moreBefore === next.moreBefore && s.moreAfter === next.moreAfter ? s : next));
  }, []);
  const metrics = () => {
    const el = ref.current;
    const gutter = el?.querySelector<HTMLElement>('.cal-corner')?.offsetWidth ?? 56;
    const day = el?.querySelector<HTMLElement>('.cal-day-head')?.offsetWidth ?? 0;
    return { el, gutter, day };
  };
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    update();
    const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null;
    ro?.observe(el);
    return () => ro?.disconnect();
  }, [update]);
  useEffect(() => {
    const { el, day } = metrics();
    if (!el) return;
    el.scrollLeft = todayCol > 0 && day > 0 && el.scrollWidth > el.clientWidth ? todayCol * day : 0;
    update();
  }, [weekKey, todayCol, update]);
  const by = (dir: 1 | -1) => {
    const { el, gutter, day } = metrics();
    if (!el) return;
    const left = el.scrollLeft + dir * weekScrollStep(el.clientWidth, gutter, day);
    if (typeof el.scrollTo === 'function') el.scrollTo({ left, behavior: 'smooth' });
    else el.scrollLeft = left;
  };
  return { ref, state, update, by };
}
