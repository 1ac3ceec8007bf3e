/**
 * The public week grid (spec §2, §9): hour rows from 07:00–20:00, widened to hold every free window,
 * a current-time line on today's column, and one focusable block per free window that opens the
 * 'Propose a time' dialog (never a booking).
 */
import type { MouseEvent } from 'react';
import { formatDayLabel, formatTime, pad2, publicHourRange, zonedParts, type DaySegment } from '../../lib/time.ts';
import { Tooltip } from './public-tooltip.tsx';
import type { ProposeTarget } from './propose-dialog.tsx';

export const PX_PER_HOUR = 48;
export const FREE_TOOLTIP = "Hey, I'm free here";

/** Accessible name of a week block: 'Free Tue 09:00 – 12:00, 24 Nov — propose a time'. */
export function slotLabel(s: DaySegment, tz: string): string {
  const l = formatDayLabel(s.date);
  return `Free ${l.weekday} ${formatTime(s.startMs, tz)} – ${formatTime(s.endMs, tz)}, ${l.day} ${l.month} — propose a time`;
}

/** Week of free windows; `onPropose` gets the window and, for a pointer click, the instant clicked. */
export function WeekGrid({
  dates,
  segments,
  tz,
  now,
  today,
  onPropose,
}: {
  dates: string[];
  segments: DaySegment[];
  tz: string;
  now: number;
  today: string;
  onPropose: (t: ProposeTarget) => void;
}) {
  const range = publicHourRange(segments.map((s) => [s.startMin, s.endMin] as const));
  const hours = Array.from({ length: range.end - range.start }, (_, i) => range.start + i);
  const height = hours.length * PX_PER_HOUR;
  const top = (min: number) => ((min - range.start * 60) / 60) * PX_PER_HOUR;
  const np = zonedParts(now, tz);
  const nowMin = np.hour * 60 + np.minute;

  const open = (s: DaySegment) => (e: MouseEvent<HTMLButtonElement>) => {
    let atMs: number | undefined;
    if (e.detail > 0) {
      // A pointer click: propose from where the block was clicked.
      const rect = e.currentTarget.getBoundingClientRect();
      const y = Math.max(0, e.clientY - rect.top);
      atMs = s.startMs + (y / PX_PER_HOUR) * 3_600_000;
    }
    onPropose({ startMs: s.startMs, endMs: s.endMs, atMs, returnFocus: e.currentTarget });
  };

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
        <div className="pub-gutter" style={{ height }} data-testid="hour-labels">
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
                const h = Math.max(14, ((s.endMin - s.startMin) / 60) * PX_PER_HOUR);
                return (
                  <Tooltip key={`${s.startMs}`} content={FREE_TOOLTIP}>
                    <button type="button" className={`pub-slot${h >= 44 ? ' with-cta' : ''}`} style={{ top: top(s.startMin), height: h }} aria-label={slotLabel(s, tz)} onClick={open(s)}>
                      <span>
                        {formatTime(s.startMs, tz)} – {formatTime(s.endMs, tz)}
                      </span>

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
