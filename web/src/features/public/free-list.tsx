/** The week's free windows as a list (spec §2 Public availability page: an accessible alternative to the grid, from 768 px). */
import { useTranslation } from 'react-i18next';
import type { DaySegment } from '../../lib/time.ts';
import { useFormats } from './public-i18n.tsx';
import type { ProposeTarget } from './propose-dialog.tsx';

/** One row per date with free windows, each window a button that opens the propose dialog. `segments`: per-day pieces of the free windows (UTC epoch ms). */
export function FreeList({ dates, segments, tz, onPropose }: { dates: string[]; segments: DaySegment[]; tz: string; onPropose: (t: ProposeTarget) => void }) {
  const { t } = useTranslation();
  const f = useFormats();
  if (!dates.length || !segments.length) return null;
  return (
    <details className="pub-list pub-wide">
      <summary>{t('free.list')}</summary>
      <ul>
        {dates.map((d) => {
          const segs = segments.filter((s) => s.date === d);
          if (!segs.length) return null;
          return (
            <li key={d}>
              <strong>{f.dayShort(d)}</strong>
              <span className="pub-list-windows">
                {segs.map((s) => {
                  const text = f.timeRange(s.startMs, s.endMs, tz);
                  return (
                    <button
                      key={s.startMs}
                      type="button"
                      className="btn btn-secondary btn-sm"
                      aria-label={t('free.propose', { day: f.dayShort(d), range: text })}
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
