/** The public page's toolbar: week/month paging and the visitor's time-zone picker (spec §2). */
import { TimezoneOptions } from '../../components/timezone-options.tsx';
import { formatMonthLabel, formatWeekRange } from '../../lib/time.ts';
import type { PublicAvailabilityState } from './use-public-availability.ts';

/** Previous/next, "Go to current week/month", and "Times shown in" with the detected zone marked. */
export function PublicToolbar({ state }: { state: PublicAvailabilityState }) {
  const { view, dates, offset, tz, detected } = state;
  return (
    <div className="pub-toolbar">
      <div className="pub-nav">
        <button type="button" className="icon-button bordered" aria-label={view === 'week' ? 'Previous week' : 'Previous month'} onClick={() => state.page(-1)}>
          ‹
        </button>
        <span className="pub-range" aria-live="polite" data-testid="pub-range">
          {view === 'week' ? formatWeekRange(dates) : formatMonthLabel(dates[0])}
        </span>
        <button type="button" className="icon-button bordered" aria-label={view === 'week' ? 'Next week' : 'Next month'} onClick={() => state.page(1)}>
          ›
        </button>
        <button type="button" className="btn btn-secondary btn-sm" disabled={offset === 0} onClick={() => state.goToCurrent()}>
          {view === 'week' ? 'Go to current week' : 'Go to current month'}
        </button>
      </div>
      <div className="pub-tz">
        <label htmlFor="pub-tz">Times shown in</label>
        <select id="pub-tz" value={tz} onChange={(e) => state.setTz(e.target.value)} aria-describedby="pub-tz-hint">
          <TimezoneOptions current={tz} extra={[detected ?? tz]} detected={detected} />
        </select>
        <span id="pub-tz-hint" className="sr-only">
          Your time zone. Change it to see the free times in another zone.
        </span>
      </div>
    </div>
  );
}
