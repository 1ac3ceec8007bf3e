/**
 * The visitor's public availability page (spec §2 Public availability page, §4 Public page,
 * §8 public messages; issue 4: propose a time): the view. Its data — zone, range, clock, the public
 * answer and its states — is usePublicAvailability (use-public-availability.ts); this file only
 * renders it. Light on purpose: only the API client, time helpers, a small tooltip and the propose
 * dialog (a native <dialog>). Shows free windows only, in the visitor's own (changeable) zone; a
 * free window can be proposed to the owner by e-mail, nothing is ever booked.
 *
 * Server-rendered (issue 11, P3) with `initial` (the server's PublicBoot): see the hook.
 */
import { useEffect, useState } from 'react';
import { dateInZone, formatDayShort, formatTime } from '../../lib/time.ts';
import { FreeList } from './free-list.tsx';
import { MonthGrid } from './month-grid.tsx';
import type { PublicBoot } from './public-boot.ts';
import { PublicToolbar } from './public-toolbar.tsx';
import { ProposeDialog, type ProposeTarget } from './propose-dialog.tsx';
import { usePublicAvailability, type PublicAvailabilityState, type PublicStatus } from './use-public-availability.ts';
import { WeekGrid } from './week-grid.tsx';
import { zoneChangeNotices } from './zone-change-notice.ts';
import './public.css';

const MESSAGES: Record<Exclude<PublicStatus, 'loading' | 'loaded'>, string> = {
  not_found: 'This availability link could not be found.',
  server_error: 'Something went wrong on our end. Please try again later.',
  network_error: 'Unable to connect. Please check your internet connection and try again.',
};

/**
 * The public page of `slug`: states, week/month views, visitor zone, and the propose dialog.
 * `linkKey`: the personal link's token the page was opened with (`?key=`), sent with every call.
 * `embed`: the compact layout shown inside another site's iframe (embed.js): no site header, links
 * open in a new tab.
 */
export default function PublicPage({ slug, linkKey, embed = false, initial }: { slug: string; linkKey?: string; embed?: boolean; initial?: PublicBoot }) {
  const state = usePublicAvailability(slug, linkKey, initial);
  const { status, data } = state;
  const [target, setTarget] = useState<ProposeTarget | null>(null);

  useEffect(() => {
    document.title = data ? `${data.user_name}'s Availability · Avail` : 'Availability · Avail';
    let meta = document.querySelector('meta[name="robots"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.setAttribute('name', 'robots');
      document.head.appendChild(meta);
    }
    meta.setAttribute('content', 'noindex');
  }, [data]);

  const pageClass = embed ? 'pub-page pub-embed' : 'pub-page';
  if (status === 'not_found' || (status !== 'loading' && status !== 'loaded' && !data)) {
    return (
      <div className={pageClass}>
        {!embed && <PublicHeader />}
        <PublicStateScreen status={status} onRetry={state.retry} />
      </div>
    );
  }

  const name = data?.user_name ?? '';
  return (
    <>
      <div className={pageClass}>
        {!embed && <PublicHeader />}
        <main className="pub-main">
          <div className="pub-title-row">
            <div>
              <h1 className="pub-title">{data ? `${name}'s Availability` : <span className="skeleton skeleton-title" />}</h1>
              {data && (
                <p className="pub-intro">
                  Pick a free time below and propose it to {name} by email — {name} will confirm it with you. Nothing is booked automatically.
                </p>
              )}
            </div>
            <div className="segmented" role="group" aria-label="View">
              <button type="button" aria-pressed={state.view === 'week'} className={state.view === 'week' ? 'active' : ''} onClick={() => state.switchView('week')}>
                Week
              </button>
              <button type="button" aria-pressed={state.view === 'month'} className={state.view === 'month' ? 'active' : ''} onClick={() => state.switchView('month')}>
                Month
              </button>
            </div>
          </div>
          <PublicToolbar state={state} />
          <PublicAvailabilityBody state={state} onPropose={setTarget} />
        </main>
        <PublicFooter slug={slug} linkKey={linkKey} embed={embed} />
      </div>
      {data && <ProposeDialog slug={slug} linkKey={linkKey} ownerName={name} tz={state.tz} target={target} onClose={() => setTarget(null)} onStale={state.refreshWindows} />}
    </>
  );
}

/** 'not_found', or an error without an answer to keep showing: the message and, for errors, "Try again". */
function PublicStateScreen({ status, onRetry }: { status: PublicStatus; onRetry: () => void }) {
  return (
    <main className="pub-state card" role={status === 'not_found' ? undefined : 'alert'}>
      <h1>{status === 'not_found' ? 'Link not found' : status === 'network_error' ? 'Connection problem' : 'Something went wrong'}</h1>
      <p data-testid="public-state" data-state={status}>
        {MESSAGES[status as keyof typeof MESSAGES]}
      </p>
      {status !== 'not_found' && (
        <button type="button" className="btn btn-primary" onClick={onRetry}>
          Try again
        </button>
      )}
    </main>
  );
}

/** Loading, the clock-change and freshness notices, the week or month grid, the list, the owner's zone. */
function PublicAvailabilityBody({ state, onPropose }: { state: PublicAvailabilityState; onPropose: (t: ProposeTarget) => void }) {
  const { status, data, view, dates, segments, tz, now, today, detected } = state;
  const loaded = status === 'loaded' && data !== null;
  return (
    <>
      {status === 'loading' && (
        <div className="pub-loading" role="status">
          <span className="spinner" /> Loading availability...
        </div>
      )}
      {loaded &&
        zoneChangeNotices(data.zone_changes, data.user_timezone, tz).map((text) => (
          <p key={text} className="pub-zone-change muted small" role="note" data-testid="pub-zone-change">
            {text}
          </p>
        ))}
      {loaded && data.stale && (
        <p className="pub-stale" role="status" data-testid="pub-stale">
          {staleNotice(data.as_of ?? null, tz)}
        </p>
      )}
      {loaded && view === 'week' && <WeekGrid dates={dates} segments={segments} tz={tz} now={now} today={today} onPropose={onPropose} />}
      {loaded && view === 'month' && (
        <MonthGrid dates={dates} segments={segments} today={today} tz={tz} selected={state.selectedDay} onSelect={state.selectDay} onPropose={onPropose} />
      )}
      {loaded && view === 'week' && <FreeList dates={dates} segments={segments} tz={tz} narrow={detected !== null && window.innerWidth < 560} onPropose={onPropose} />}
      {data && data.user_timezone && data.user_timezone !== tz && (
        <p className="muted small pub-owner-tz">
          {data.user_name} is based in {data.user_timezone.replace(/_/g, ' ')}. All times above are in {tz.replace(/_/g, ' ')}.
        </p>
      )}
    </>
  );
}

/** "Powered by Avail": in an embed, a new-tab link to the full page (with the personal key). */
function PublicFooter({ slug, linkKey, embed }: { slug: string; linkKey?: string; embed: boolean }) {
  return (
    <footer className="pub-footer">
      {embed ? (
        <>
          Powered by{' '}
          <a href={`/${encodeURIComponent(slug)}${linkKey ? `?key=${encodeURIComponent(linkKey)}` : ''}`} target="_blank" rel="noopener noreferrer">
            Avail
          </a>{' '}
          · only free times are shown
        </>
      ) : (
        <>
          Powered by <a href="/">Avail</a> · only free times are shown
        </>
      )}
    </footer>
  );
}

/** The notice shown when the owner's calendars may be out of date (issue 14: honest freshness). */
export function staleNotice(asOf: string | null, tz: string): string {
  if (!asOf) return 'Availability may be out of date: some of these calendars could not be checked yet.';
  const ms = Date.parse(asOf);
  return `Availability may be out of date (last checked ${formatDayShort(dateInZone(ms, tz))} at ${formatTime(ms, tz)}).`;
}

function PublicHeader() {
  return (
    <header className="pub-header">
      <a className="logo" href="/" aria-label="Avail">
        <svg className="logo-mark" viewBox="0 0 32 32" aria-hidden="true">
          <rect width="32" height="32" rx="8" fill="currentColor" />
          <path d="M9 17l5 5 9-11" stroke="white" strokeWidth="3.5" fill="none" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="logo-text">Avail</span>
      </a>
    </header>
  );
}
