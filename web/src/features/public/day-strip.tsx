/**
 * The phone's week (issue 22 item 1, below 768 px): a strip of the week's seven days (weekday,
 * date, a dot where there is free time) and, under it, the chosen day's free windows as large
 * buttons ('9:00 AM – 12:00 PM' in the visitor's format) that open the 'Propose a time' dialog
 * for that window. CSS shows this or the week grid, so the server's markup serves both.
 */
import { useTranslation } from 'react-i18next';
import { useFormats } from './public-i18n.tsx';
import type { ProposeTarget } from './propose-dialog.tsx';
import type { PublicAvailabilityState } from './use-public-availability.ts';
import { DayWindows } from './day-windows.tsx';

/** The strip and the focused day's buttons. */
export function DayStrip({ state, onPropose }: { state: PublicAvailabilityState; onPropose: (t: ProposeTarget) => void }) {
  const { t } = useTranslation();
  const f = useFormats();
  const { dates, segments, today, tz, now, dayInFocus } = state;
  const free = new Set(segments.filter((s) => s.endMs > now).map((s) => s.date));
  const daySegs = segments.filter((s) => s.date === dayInFocus && s.endMs > now);
  return (
    <div className="pub-narrow pub-strip-wrap">
      <div className="pub-strip" role="group" aria-label={t('free.daysGroup')}>
        {dates.map((d) => (
          <button
            key={d}
            type="button"
            className={`pub-strip-day${d === today ? ' today' : ''}${d < today ? ' past' : ''}`}
            aria-pressed={d === dayInFocus}
            aria-label={`${f.dayLong(d)}: ${free.has(d) ? t('free.times', { count: segments.filter((s) => s.date === d && s.endMs > now).length }) : t('free.dayNone')}`}
            onClick={() => state.selectDay(d)}
          >
            <span className="pub-strip-weekday" aria-hidden="true">
              {f.weekdayShort(d)}
            </span>
            <strong aria-hidden="true">{Number(d.slice(8))}</strong>
            <span className={`dot${free.has(d) ? '' : ' none'}`} aria-hidden="true" />
          </button>
        ))}
      </div>
      <section className="pub-day-list" aria-live="polite" aria-label={t('free.dayGroup', { day: f.dayLong(dayInFocus) })}>
        <h2 className="pub-day-title">{f.dayLong(dayInFocus)}</h2>
        {daySegs.length === 0 ? (
          <p className="muted">{t('free.noneDay', { day: f.dayShort(dayInFocus) })}</p>
        ) : (
          <DayWindows day={dayInFocus} segments={daySegs} tz={tz} from={now} variant="large" onPropose={onPropose} />
        )}
      </section>
    </div>
  );
}
