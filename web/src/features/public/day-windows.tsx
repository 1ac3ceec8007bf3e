/**
 * One day's free windows as buttons (the phone's day list and the month's day panel): each shows
 * its times in the visitor's format, carries the 'Hey, I'm free here' tooltip and opens the
 * 'Propose a time' dialog for that window.
 */
import { useTranslation } from 'react-i18next';
import type { DaySegment } from '../../lib/time.ts';
import { useFormats } from './public-i18n.tsx';
import type { ProposeTarget } from './propose-dialog.tsx';
import { Tooltip } from './public-tooltip.tsx';

/**
 * `segments`: the day's pieces of free windows (UTC ms); `from`: shown times start no earlier
 * (now, on today); `variant` 'large' (phone: full-width, 48 px) or 'compact' (month panel, with
 * the "Propose a time" hint).
 */
export function DayWindows({ day, segments, tz, from = 0, variant, onPropose }: { day: string; segments: DaySegment[]; tz: string; from?: number; variant: 'large' | 'compact'; onPropose: (t: ProposeTarget) => void }) {
  const { t } = useTranslation();
  const f = useFormats();
  return (
    <ul className={variant === 'large' ? 'pub-day-buttons' : 'pub-day-windows'} data-testid={variant === 'large' ? 'day-buttons' : undefined}>
      {segments.map((s) => {
        const times = f.timeRange(Math.max(s.startMs, from), s.endMs, tz);
        return (
          <li key={s.startMs}>
            <Tooltip content={t('free.tooltip')}>
              <button
                type="button"
                className={variant === 'large' ? 'pub-time-btn' : 'pub-window-btn'}
                data-cta={variant === 'compact' ? t('propose.title') : undefined}
                aria-label={t('free.slot', { range: times, day: f.dayShort(day) })}
                onClick={(e) => onPropose({ startMs: s.startMs, endMs: s.endMs, returnFocus: e.currentTarget })}
              >
                {variant === 'large' ? times : <strong>{times}</strong>}
              </button>
            </Tooltip>
          </li>
        );
      })}
    </ul>
  );
}
