/** The week's free windows as a list (spec §2 Public availability page: an accessible alternative to the grid). */
import { formatDayShort, formatTime, type DaySegment } from '../../lib/time.ts';
import type { ProposeTarget } from './propose-dialog.tsx';

/**
 * One row per date with free windows, each window a button that opens the propose dialog.
 * `segments`: per-day pieces of the free windows (UTC epoch ms); `narrow`: open at first (known
 * only in the browser, so false in the server's render).
 */
export function FreeList({ dates, segments, tz, narrow, onPropose }: { dates: string[]; segments: DaySegment[]; tz: string; narrow: boolean; onPropose: (t: ProposeTarget) => void }) {
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
