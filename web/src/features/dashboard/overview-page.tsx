/** Dashboard Overview (spec §2 Dashboard; §3 Dashboard data with its defaults). */
import { Link } from 'react-router-dom';
import { api, type CalendarConnection, type DashboardStats } from '@avail/shared/api/api-client.ts';
import { useLocalConnections, useLocalData, useLocalExceptions, useLocalRules } from '../../data/local-data.tsx';
import { dataAreas, useSession } from '../../data/session.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { browserTimeZone } from '../../lib/time.ts';
import { staleCalendars } from './calendar-freshness.ts';
import { calendarsSummary } from './calendars-summary.ts';
import { ProposalsCard } from './proposals-card.tsx';
import { mapStats, viewsChangeLine } from './stats.ts';
import { useCopy } from '../../components/use-copy.ts';
import { useStore } from './use-store.ts';
import { WeekCalendar } from './week-calendar.tsx';
import { displayLink, publicLinkOf } from '../../lib/public-link.ts';

export default function OverviewPage() {
  const { user } = useSession();
  const stats = useStore('dashboard', dataAreas.dashboard);
  // Rules and connections: the device database once it has synced, REST until then.
  const local = useLocalData();
  const localRules = useLocalRules(local.data, local.synced);
  const localConns = useLocalConnections(local.data, local.synced);
  const fromDevice = Boolean(local.data && local.synced);
  const restRules = useStore('availability', dataAreas.availability, !fromDevice);
  const restConns = useStore('connections', () => api.connections(), !fromDevice);
  const rules = fromDevice && localRules ? { data: { rules: localRules }, loading: false, error: null } : restRules;
  // Date overrides replace a date's weekly hours in the preview (device database, REST until synced).
  const localExceptions = useLocalExceptions(local.data, local.synced);
  const restExceptions = useStore('exceptions', () => api.exceptions(), !fromDevice);
  const exceptions = fromDevice && localExceptions ? localExceptions : restExceptions.data?.exceptions;
  const connections = fromDevice && localConns ? { data: { connections: localConns }, loading: false } : restConns;
  const { copied, copy } = useCopy();
  const s = mapStats(stats.data);
  const slug = user?.username || (stats.data?.user_slug ?? s.userSlug);
  const link = publicLinkOf(user, slug);
  const ruleList = rules.data?.rules ?? [];
  const conns: CalendarConnection[] = connections.data?.connections ?? [];
  const calendars = calendarsSummary(conns);
  const stale = staleCalendars(conns, Date.now());
  const timezone = user?.timezone || browserTimeZone();
  const firstName = (user?.name ?? '').split(' ')[0];

  return (
    <div className="page">
      <section className="welcome-banner">
        <div>
          <h1>Welcome back{firstName ? `, ${firstName}` : ''}!</h1>
          <p>Share your link and let people pick a time that works — they only ever see when you&apos;re free.</p>
        </div>
        <a className="btn btn-light" href={link} target="_blank" rel="noreferrer">
          View public page ↗
        </a>
      </section>

      {stale.length > 0 && (
        <section className="alert alert-warning stale-calendars" role="status" aria-labelledby="stale-title">
          <span className="alert-icon" aria-hidden="true">
            !
          </span>
          <div className="alert-body">
            <strong id="stale-title">Your public page says your availability may be out of date.</strong>
            <ul>
              {stale.map((c) => (
                <li key={c.id}>
                  <strong>{c.label}</strong>: {c.problem} {c.fix}{' '}
                  <Link to="/app/settings#calendars">Open My Calendars</Link>
                </li>
              ))}
            </ul>
          </div>
        </section>
      )}

      <div className="stat-grid">
        <div className="card stat-card">
          <p className="stat-label">Total Views</p>
          <p className="stat-value" data-testid="total-views">
            {stats.loading && !stats.data ? <Spinner size={18} /> : s.totalViews}
          </p>
          <ViewsChange stats={stats.data} loading={stats.loading && !stats.data} />
        </div>
        <div className="card stat-card stat-card-wide">
          <p className="stat-label">Copy Link</p>
          <p className="stat-link" title={link} data-testid="dashboard-link">
            <LinkText text={displayLink(link)} />
          </p>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => void copy(link)} aria-live="polite">
            {copied ? 'Copied!' : 'Copy Link'}
          </button>
        </div>
        <div className="card stat-card">
          <p className="stat-label">This Week</p>
          <p className="stat-value">{s.thisWeekEvents}</p>
          <p className="stat-sub muted small">Events on your calendars</p>
        </div>
        {/* Honest about broken calendars (issue 23 item 5): they count as connected and are named. */}
        <Link to="/app/settings#calendars" className={`card stat-card stat-card-wide card-link${calendars.attention.length ? ' needs-attention' : ''}`} data-testid="calendars-card">
          <p className="stat-label">My Calendars</p>
          <p className="stat-value">{connections.loading && !connections.data ? <Spinner size={18} /> : calendars.count}</p>
          {calendars.count === 0 ? (
            <>
              <p className="stat-sub muted small">None yet: connect one so your busy times stay hidden.</p>
              <span className="btn btn-primary btn-sm stat-card-action">Connect a calendar</span>
            </>
          ) : (
            <>
              <p className={`stat-sub small${calendars.attention.length ? ' text-danger' : ' muted'}`} data-testid="calendars-line">
                {calendars.line}
              </p>
              {calendars.attention.length > 0 && (
                <p className="stat-sub small" data-testid="calendars-attention">
                  {calendars.attention.join(', ')} · Fix it →
                </p>
              )}
            </>
          )}
        </Link>
      </div>
      <ProposalsCard />

      {rules.loading && !rules.data ? (
        <div className="card center-block">
          <Spinner size={24} label="Loading availability" />
        </div>
      ) : ruleList.length === 0 && !rules.error ? (
        <section className="card empty-state">
          <h2>No availability set</h2>
          <p className="muted">Add your weekly hours so visitors can see when you&apos;re free.</p>
          <Link to="/app/availability" className="btn btn-primary">
            Set your availability
          </Link>
        </section>
      ) : (
        <WeekCalendar rules={ruleList} timezone={timezone} exceptions={exceptions} />
      )}
    </div>
  );
}

/** A link that may break after its host ('host/<wbr>name') rather than inside a number. */
function LinkText({ text }: { text: string }) {
  const slash = text.indexOf('/');
  if (slash < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, slash + 1)}
      <wbr />
      {text.slice(slash + 1)}
    </>
  );
}

const TREND_ICON = { up: '▲', down: '▼', flat: '▬', new: '★', none: '' } as const;

/** The Total Views card's change line: last 7 days against the 7 before, with an arrow and a word. */
function ViewsChange({ stats, loading }: { stats?: DashboardStats; loading: boolean }) {
  if (loading || !stats) return <p className="stat-sub muted small">Visits to your public page</p>;
  const { trend, text } = viewsChangeLine(stats.views_last_7_days ?? 0, stats.views_previous_7_days ?? 0, stats.views_change_percent ?? null);
  return (
    <p className={`stat-sub small trend trend-${trend}`}>
      {TREND_ICON[trend] && (
        <span className="trend-icon" aria-hidden="true">
          {TREND_ICON[trend]}
        </span>
      )}
      <span data-testid="views-change">{text}</span>
    </p>
  );
}
