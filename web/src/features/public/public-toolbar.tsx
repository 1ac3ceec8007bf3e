/** The public page's toolbar: week/month paging with the period in the visitor's format (spec §2). */
import { useTranslation } from 'react-i18next';
import { useFormats } from './public-i18n.tsx';
import type { PublicAvailabilityState } from './use-public-availability.ts';

/** Previous/next, the period shown, and "Go to current week/month". */
export function PublicToolbar({ state }: { state: PublicAvailabilityState }) {
  const { t } = useTranslation();
  const f = useFormats();
  const { view, dates, isCurrent } = state;
  const week = view === 'week';
  return (
    <div className="pub-toolbar">
      <div className="pub-nav">
        <button type="button" className="icon-button bordered" aria-label={week ? t('nav.previousWeek') : t('nav.previousMonth')} onClick={() => state.page(-1)}>
          ‹
        </button>
        <span className="pub-range" aria-live="polite" data-testid="pub-range">
          {week ? f.dateRange(dates[0], dates[dates.length - 1]) : f.monthLabel(dates[0])}
        </span>
        <button type="button" className="icon-button bordered" aria-label={week ? t('nav.nextWeek') : t('nav.nextMonth')} onClick={() => state.page(1)}>
          ›
        </button>
        <button type="button" className="btn btn-secondary btn-sm pub-current" disabled={isCurrent} onClick={() => state.goToCurrent()}>
          {week ? t('nav.currentWeek') : t('nav.currentMonth')}
        </button>
      </div>
    </div>
  );
}
