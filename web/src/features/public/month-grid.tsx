/**
 * The public month grid (spec §2): a dot on every day with free time, weeks starting on the
 * visitor locale's first day. Choosing a day lists that day's free windows as buttons that open the
 * 'Propose a time' dialog.
 */
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DaySegment } from '../../lib/time.ts';
import { useFormats } from './public-i18n.tsx';
import { DayWindows } from './day-windows.tsx';
import type { ProposeTarget } from './propose-dialog.tsx';

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
  const { t } = useTranslation();
  const f = useFormats();
  const dow = (d: string) => new Date(`${d}T12:00:00Z`).getUTCDay();
  const lead = (dow(dates[0]) - f.weekStart + 7) % 7;
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
      <div className="pub-month" role="group" aria-label={t('free.monthGroup')} onKeyDown={onKeyDown}>
        {f.weekdayHeads().map((d) => (
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
              aria-label={t('free.dayAria', { day: f.dayShort(d), hours: mins ? t('free.hours', { count: Math.round((mins / 60) * 10) / 10 }) : t('free.dayNone') })}
            >
              <span className="pub-month-day">{Number(d.slice(8))}</span>
              {mins > 0 && <span className="dot" aria-hidden="true" data-testid="availability-dot" />}
            </button>
          );
        })}
      </div>
      {segments.length > 0 && (
        <section className="pub-day-panel" aria-live="polite" aria-label={day ? t('free.dayGroup', { day: f.dayShort(day) }) : t('free.chooseDay')}>
          {!day ? (
            <p className="muted">{t('free.chooseDay')}</p>
          ) : daySegs.length === 0 ? (
            <p className="muted">
              {t('free.noneDay', { day: f.dayShort(day) })} {t('free.chooseDay')}
            </p>
          ) : (
            <>
              <h2 className="pub-day-title">{t('free.freeOn', { day: f.dayLong(day) })}</h2>
              <DayWindows day={day} segments={daySegs} tz={tz} variant="compact" onPropose={onPropose} />
            </>
          )}
        </section>
      )}
    </>
  );
}
