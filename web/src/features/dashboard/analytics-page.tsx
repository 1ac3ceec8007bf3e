/**
 * Analytics (spec §2 Analytics; the issue makes it real): public-page views per day (one view per
 * visitor per day, counted by the server without IP addresses) for Last 7 days / Last 30 days /
 * Last 3 months, with the total, the change against the previous period and the best day.
 * 'No analytics data yet' while there are none. The Filter button stays non-functional (spec).
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api, type LinkAnalytics } from '@avail/shared/api/api-client.ts';
import { dataAreas } from '../../data/session.tsx';
import { useOwnerFormats } from '../../data/use-owner-formats.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { viewsChangeLine } from './stats.ts';
import { useStore } from './use-store.ts';

type Days = 7 | 30 | 90;
const RANGES: { days: Days; label: string }[] = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 3 months' },
];
const TREND_ICON = { up: '▲', down: '▼', flat: '▬', new: '★', none: '' } as const;

/** The area key of a range: Last 7 days is the preloaded 'analytics' area. */
const areaKey = (days: Days) => (days === 7 ? 'analytics' : `analytics-${days}`);

/** The owner's Analytics screen. */
export default function AnalyticsPage() {
  const [days, setDays] = useState<Days>(7);
  const store = useStore<LinkAnalytics>(areaKey(days), days === 7 ? dataAreas.analytics : () => api.linkAnalytics(days));
  // The store keeps the previous range's data until the new one arrives: show it only when it matches.
  const data = store.data && store.data.days === days ? store.data : undefined;
  const label = RANGES.find((r) => r.days === days)!.label;

  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Analytics</h1>
          <p className="muted">How many people open your availability link — one view per visitor per day.</p>
        </div>
        <div className="toolbar">
          <button type="button" className="btn btn-secondary btn-sm" aria-label="Filter (coming soon)">
            Filter
          </button>
          <label className="sr-only" htmlFor="analytics-range">
            Range
          </label>
          <select id="analytics-range" value={days} onChange={(e) => setDays(Number(e.target.value) as Days)}>
            {RANGES.map((r) => (
              <option key={r.days} value={r.days}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {!data && store.error ? (
        <div className="card" role="alert">
          Failed to load analytics.{' '}
          <button type="button" className="btn-link" onClick={() => void store.reload(true)}>
            Try again
          </button>
        </div>
      ) : !data ? (
        <div className="card center-block">
          <Spinner size={24} label="Loading analytics" />
        </div>
      ) : data.total === 0 && data.previous_total === 0 ? (
        <section className="card empty-state">
          <h2>No analytics data yet</h2>
          <p className="muted">Share your link — visits will show up here.</p>
          <Link to="/app/links" className="btn btn-primary">
            Share your link
          </Link>
        </section>
      ) : (
        <AnalyticsReport data={data} rangeLabel={label} />
      )}
    </div>
  );
}

function AnalyticsReport({ data, rangeLabel }: { data: LinkAnalytics; rangeLabel: string }) {
  const entries = data.analytics ?? [];
  const fmt = useOwnerFormats();
  const max = Math.max(1, ...entries.map((e) => e.views));
  const best = entries.reduce<(typeof entries)[number] | null>((b, e) => (e.views > 0 && (!b || e.views > b.views) ? e : b), null);
  const change = viewsChangeLine(data.total, data.previous_total, null, `previous ${data.days} days`, 'New in this period');
  const ticks = entries.length > 1 ? [entries[0], entries[Math.floor((entries.length - 1) / 2)], entries[entries.length - 1]] : entries;

  return (
    <>
      <div className="stat-grid analytics-stats">
        <div className="card stat-card">
          <p className="stat-label">Views</p>
          <p className="stat-value" data-testid="analytics-total">
            {data.total}
          </p>
          <p className="stat-sub muted small">{rangeLabel}</p>
        </div>
        <div className="card stat-card">
          <p className="stat-label">Change</p>
          <p className={`stat-sub trend trend-${change.trend}`}>
            {TREND_ICON[change.trend] && (
              <span className="trend-icon" aria-hidden="true">
                {TREND_ICON[change.trend]}
              </span>
            )}
            <span data-testid="analytics-change">{change.text}</span>
          </p>
          <p className="stat-sub muted small">
            {data.previous_total} {data.previous_total === 1 ? 'view' : 'views'} in the {data.days} days before
          </p>
        </div>
        <div className="card stat-card">
          <p className="stat-label">Best day</p>
          <p className="stat-sub best-day" data-testid="analytics-best-day">
            {best ? fmt.dateWithWeekday(best.date) : 'No views in this range'}
          </p>
          {best && (
            <p className="stat-sub muted small">
              {best.views} {best.views === 1 ? 'view' : 'views'}
            </p>
          )}
        </div>
      </div>
      <section className="card" aria-labelledby="views-chart-title">
        <h2 id="views-chart-title" className="card-title">
          Views per day
        </h2>
        <ul className={`bar-chart${entries.length > 31 ? ' dense' : ''}`} aria-label={`Views per day, ${rangeLabel.toLowerCase()}`} data-testid="views-chart">
          {entries.map((e) => {
            const text = `${fmt.dateWithWeekday(e.date)}: ${e.views} ${e.views === 1 ? 'view' : 'views'}`;
            return (
              <li key={e.date} className="bar-slot" title={text}>
                {entries.length <= 31 && e.views > 0 && (
                  <span className="bar-value" aria-hidden="true">
                    {e.views}
                  </span>
                )}
                <span className={`bar${e.views === 0 ? ' zero' : ''}`} role="img" aria-label={text} style={{ height: `${(e.views / max) * 85}%` }} />
              </li>
            );
          })}
        </ul>
        <div className="bar-axis small muted" aria-hidden="true">
          {ticks.map((t, i) => (
            <span key={`${t.date}-${i}`}>{fmt.dateWithWeekday(t.date, false)}</span>
          ))}
        </div>
        <table className="sr-only">
          <caption>Views per day</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Views</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.date}>
                <td>{fmt.dateWithWeekday(e.date)}</td>
                <td>{e.views}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
