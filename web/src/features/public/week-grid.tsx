/**
 * The public week grid (spec §2, §9), shown from 768 px: hour rows from 07:00–20:00, widened to
 * hold every free window, a current-time line on today's column, and one focusable block per free
 * window, labelled with its times in the visitor's format, that opens the 'Propose a time' dialog
 * (never a booking). Phones get the day strip instead (day-strip.tsx; CSS picks one).
 */
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Formats } from '@avail/shared/i18n/formats.ts';
import { publicHourRange, zonedParts, zonedToUtc, type DaySegment } from '../../lib/time.ts';
import { useFormats } from './public-i18n.tsx';
import { Tooltip } from './public-tooltip.tsx';
import type { ProposeTarget } from './propose-dialog.tsx';

const PX_PER_HOUR = 48;

/** The times of a free block: '9:00 AM – 12:00 PM' (en-US) or '09:00–12:00' (en-GB). */
function blockTimes(s: DaySegment, tz: string, f: Formats): string {
  return f.timeRange(s.startMs, s.endMs, tz);
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
  const { t } = useTranslation();
  const f = useFormats();
  const range = publicHourRange(segments.map((s) => [s.startMin, s.endMin] as const));
  const hours = Array.from({ length: range.end - range.start }, (_, i) => range.start + i);
  const height = hours.length * PX_PER_HOUR;
  const top = (min: number) => ((min - range.start * 60) / 60) * PX_PER_HOUR;
  const np = zonedParts(now, tz);
  const nowMin = np.hour * 60 + np.minute;
  // Hour labels in the visitor's clock: the hour's instant on the first shown day ('9 AM' / '09:00').
  const hourLabel = (h: number) => f.hourMark(zonedToUtc(dates[0], h * 60, tz), tz);

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
    <div className="pub-grid-scroll pub-wide">
      <div className="pub-grid" role="group" aria-label={t('free.weekGroup')}>
        <div className="pub-corner" />
        {dates.map((d) => (
          <div key={d} className={`pub-day-head${d === today ? ' today' : ''}`}>
            <span>{f.weekdayShort(d)}</span>
            <strong>{Number(d.slice(8))}</strong>
          </div>
        ))}
        <div className="pub-gutter" style={{ height }} data-testid="hour-labels">
          {hours.map((h) => (
            <div key={h} className="pub-hour-label" style={{ top: (h - range.start) * PX_PER_HOUR }}>
              {hourLabel(h)}
            </div>
          ))}
        </div>
        {dates.map((d) => (
          <div key={d} className={`pub-col${d < today ? ' past' : ''}`} style={{ height, backgroundSize: `100% ${PX_PER_HOUR}px` }}>
            {segments
              .filter((s) => s.date === d)
              .map((s) => {
                const h = Math.max(20, ((s.endMin - s.startMin) / 60) * PX_PER_HOUR);
                const times = blockTimes(s, tz, f);
                return (
                  <Tooltip key={`${s.startMs}`} content={t('free.tooltip')}>
                    <button
                      type="button"
                      className={`pub-slot${h >= 44 ? ' with-cta' : ''}`}
                      data-cta={t('propose.title')}
                      style={{ top: top(s.startMin), height: h }}
                      aria-label={t('free.slot', { range: times, day: f.dayShort(d) })}
                      onClick={open(s)}
                    >
                      <span>{times}</span>
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
    </div>
  );
}
