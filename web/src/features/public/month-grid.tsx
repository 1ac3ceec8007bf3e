/**
 * The public month grid (spec §2): a dot on every day with free time. Choosing a day lists that
 * day's free windows as buttons that open the 'Propose a time' dialog.
 */
import type { KeyboardEvent } from 'react';
import { formatDayShort, formatTime, weekdayMon0, type DaySegment } from '../../lib/time.ts';
import { Tooltip } from './public-tooltip.tsx';
import type { ProposeTarget } from './propose-dialog.tsx';
import { FREE_TOOLTIP } from './week-grid.tsx';

function hoursText(mins: number): string {
  const h = Math.round((mins / 60) * 10) / 10;
  return `${h} free ${h === 1 ? 'hour' : 'hours'}`;
}

/** Days the arrow keys move by (a grid: ←/→ one day, ↑/↓ one week). */
const STEP: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };

/**
 * Month of days with availability dots, and the chosen day's windows. The days are one tab stop
 * (roving tabindex, as in the WAI-ARIA date-grid pattern): arrows move between days, Home/End go to
 * the first/last day, Enter or Space chooses one.
 */
export function MonthGrid({
  dates,
  segments,
  today,
  tz,
  selected,
  onSelect,
  onPropose,
}: {
  dates: string[];
  segments: DaySegment[];
  today: string;
  tz: string;
  selected: string | null;
  onSelect: (date: string) => void;
  onPropose: (t: ProposeTarget) => void;
}) {
  const lead = weekdayMon0(dates[0]);
  const free = new Map<string, number>();
  for (const s of segments) free.set(s.date, (free.get(s.date) ?? 0) + (s.endMin - s.startMin));
  const day = selected && dates.includes(selected) ? selected : null;
  const daySegs = day ? segments.filter((s) => s.date === day) : [];
  const tabStop = day ?? (dates.includes(today) ? today : dates[0]);

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const from = (e.target as HTMLElement).dataset.date;
    if (!from) return;
    const i = dates.indexOf(from);
    const j = e.key === 'Home' ? 0 : e.key === 'End' ? dates.length - 1 : STEP[e.key] !== undefined ? i + STEP[e.key] : -1;
    if (j < 0 || j >= dates.length) return;
    e.preventDefault();
    e.currentTarget.querySelector<HTMLButtonElement>(`[data-date="${dates[j]}"]`)?.focus();
  }

  return (
    <>
      <div className="pub-month" role="group" aria-label="Month of free times" onKeyDown={onKeyDown}>
        {['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((d) => (
          <div key={d} className="pub-month-head" aria-hidden="true">
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
              data-date={d}
              tabIndex={d === tabStop ? 0 : -1}
              className={`pub-month-cell${d === today ? ' today' : ''}${d < today ? ' past' : ''}${mins ? ' has-free' : ''}`}
              aria-pressed={d === day}
              onClick={() => onSelect(d)}
              aria-label={`${formatDayShort(d)}: ${mins ? hoursText(mins) : 'no free time'}`}
            >
              <span className="pub-month-day">{Number(d.slice(8))}</span>
              {mins > 0 && <span className="dot" aria-hidden="true" data-testid="availability-dot" />}
            </button>
          );
        })}
        {segments.length === 0 && <p className="pub-empty pub-month-empty">No free times this month. Try the next month.</p>}
      </div>
      {segments.length > 0 && (
        <section className="pub-day-panel" aria-live="polite" aria-label={day ? `Free times on ${formatDayShort(day)}` : 'Free times of a day'}>
          {!day ? (
            <p className="muted">Choose a day with a green dot to see its free times and propose one.</p>
          ) : daySegs.length === 0 ? (
            <p className="muted">No free times on {formatDayShort(day)}. Choose a day with a green dot.</p>
          ) : (
            <>
              <h2 className="pub-day-title">Free on {formatDayShort(day)}</h2>
              <ul className="pub-day-windows">
                {daySegs.map((s) => {
                  const text = `${formatTime(s.startMs, tz)}–${formatTime(s.endMs, tz)}`;
                  return (
                    <li key={s.startMs}>
                      <Tooltip content={FREE_TOOLTIP}>
                        <button
                          type="button"
                          className="pub-window-btn"
                          aria-label={`Free ${formatDayShort(day)}, ${text} — propose a time`}
                          onClick={(e) => onPropose({ startMs: s.startMs, endMs: s.endMs, returnFocus: e.currentTarget })}
                        >
                          <strong>{text}</strong>
                        </button>
                      </Tooltip>
                    </li>
                  );
                })}
              </ul>
            </>
          )}
        </section>
      )}
    </>
  );
}
