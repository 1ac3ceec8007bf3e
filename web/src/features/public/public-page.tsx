/**
 * The visitor's public availability page (spec §2 Public availability page, §4 Public page,
 * §8 public messages; issue 4: propose a time; issue 22: phone first, free time first, the
 * visitor's language and clock): the view. Its data — zone, place, clock, the public answer and its
 * states — is usePublicAvailability (use-public-availability.ts); texts come from i18next
 * (`useTranslation`, the visitor's language only) and dates from `useFormats` (public-i18n.tsx).
 * Light on purpose: only the API client, time helpers, a small tooltip and the propose dialog (a
 * native <dialog>). Shows free windows only, in the visitor's own (changeable) zone; a free window
 * can be proposed to the owner by e-mail, nothing is ever booked.
 *
 * Layout: below 768 px the week is a day strip with the chosen day's free times as buttons
 * (day-strip.tsx); from 768 px the week grid and the list. Both are in the markup (the server
 * cannot know the width); CSS shows one.
 *
 * Server-rendered (issue 11, P3) with `initial` (the server's PublicBoot): see the hook.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateInZone } from '../../lib/time.ts';
import { DayStrip } from './day-strip.tsx';
import { FreeList } from './free-list.tsx';
import { HostCard, hostAvatarSrc } from './host-card.tsx';
import { MonthGrid } from './month-grid.tsx';
import type { PublicBoot } from './public-boot.ts';
import { useFormats, useLocalePreferences } from './public-i18n.tsx';
import { PublicPrefs } from './public-prefs.tsx';
import { PublicToolbar } from './public-toolbar.tsx';
import { richText } from './rich-text.tsx';
import { ProposeDialog, type ProposeTarget } from './propose-dialog.tsx';
import { usePublicAvailability, type PublicAvailabilityState, type PublicStatus } from './use-public-availability.ts';
import { WeekGrid } from './week-grid.tsx';
import { useZoneChangeNotices } from './zone-change-notice.ts';
import './public.css';
import './day-strip.css';

/**
 * The public page of `slug`: states, week/month views, visitor zone, language and clock, and the
 * propose dialog. `linkKey`: the personal link's token the page was opened with (`?key=`), sent
 * with every call. `embed`: the compact layout shown inside another site's iframe (embed.js): no
 * site header, links open in a new tab. Must be inside `PublicI18n`.
 */
export default function PublicPage({ slug, linkKey, embed = false, initial }: { slug: string; linkKey?: string; embed?: boolean; initial?: PublicBoot }) {
  const { t } = useTranslation();
  const { formats } = useLocalePreferences();
  const state = usePublicAvailability(slug, linkKey, initial, formats.weekStart);
  const { status, data } = state;
  const [target, setTarget] = useState<ProposeTarget | null>(null);

  useEffect(() => {
    document.title = data ? t('page.docTitle', { name: data.user_name }) : t('page.docTitleEmpty');
    let meta = document.querySelector('meta[name="robots"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.setAttribute('name', 'robots');
      document.head.appendChild(meta);
    }
    meta.setAttribute('content', 'noindex');
  }, [data, t]);

  const pageClass = embed ? 'pub-page pub-embed' : 'pub-page';
  if (status === 'not_found' || (status !== 'loading' && status !== 'loaded' && !data)) {
    return (
      <div className={pageClass}>
        {!embed && <PublicHeader />}
        <PublicStateScreen status={status} onRetry={state.retry} embed={embed} />
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
            {data ? (
              <HostCard
                name={name}
                intro={data.host?.intro ?? null}
                avatarUrl={hostAvatarSrc(data.host?.avatar_url, linkKey)}
                embed={embed}
                heading={<h1 className="pub-title">{t('page.title', { name })}</h1>}
              >
                <p className="pub-intro">{t('page.intro')}</p>
              </HostCard>
            ) : (
              <h1 className="pub-title">
                <span className="skeleton skeleton-title" />
              </h1>
            )}
          </div>
          <div className="pub-controls">
            <div className="segmented" role="group" aria-label={t('view.label')}>
              <button type="button" aria-pressed={state.view === 'week'} className={state.view === 'week' ? 'active' : ''} onClick={() => state.switchView('week')}>
                {t('view.week')}
              </button>
              <button type="button" aria-pressed={state.view === 'month'} className={state.view === 'month' ? 'active' : ''} onClick={() => state.switchView('month')}>
                {t('view.month')}
              </button>
            </div>
            <PublicToolbar state={state} />
          </div>
          <PublicAvailabilityBody state={state} onPropose={setTarget} />
          <PublicPrefs state={state} />
        </main>
        <PublicFooter slug={slug} linkKey={linkKey} embed={embed} />
      </div>
      {data && <ProposeDialog slug={slug} linkKey={linkKey} ownerName={name} tz={state.tz} target={target} onClose={() => setTarget(null)} onStale={state.refreshWindows} />}
    </>
  );
}

/** The "link not found" page alone (the server renders it for an unknown link, with a 404). */
export function PublicNotFound({ embed = false }: { embed?: boolean }) {
  return (
    <div className={embed ? 'pub-page pub-embed' : 'pub-page'}>
      {!embed && <PublicHeader />}
      <PublicStateScreen status="not_found" onRetry={() => undefined} embed={embed} />
    </div>
  );
}

/**
 * 'not_found' (a proper 404 page: what happened, a way home, "Is this your link? Sign in"), or an
 * error without an answer to keep showing: the message and "Try again".
 */
function PublicStateScreen({ status, onRetry, embed }: { status: PublicStatus; onRetry: () => void; embed: boolean }) {
  const { t } = useTranslation();
  const target = embed ? { target: '_blank', rel: 'noopener noreferrer' } : {};
  if (status === 'not_found') {
    return (
      <main className="pub-state card" data-testid="not-found-page">
        <p className="pub-state-code" aria-hidden="true">
          404
        </p>
        <h1>{t('states.notFoundTitle')}</h1>
        <p data-testid="public-state" data-state={status}>
          {t('states.notFound')}
        </p>
        <p className="muted">{t('states.notFoundHelp')}</p>
        <a className="btn btn-primary" href="/" {...target}>
          {t('states.home')}
        </a>
        <p className="small">
          {t('states.yourLink')}{' '}
          <a href="/login" {...target}>
            {t('states.signIn')}
          </a>
        </p>
      </main>
    );
  }
  return (
    <main className="pub-state card" role="alert">
      <h1>{status === 'network_error' ? t('states.connectionTitle') : t('states.errorTitle')}</h1>
      <p data-testid="public-state" data-state={status}>
        {status === 'network_error' ? t('states.networkError') : t('states.serverError')}
      </p>
      <button type="button" className="btn btn-primary" onClick={onRetry}>
        {t('states.retry')}
      </button>
    </main>
  );
}

/** An empty week or month: says so and, when the answer names one, when the next free time is, with a button to go there. */
function EmptyPeriod({ state }: { state: PublicAvailabilityState }) {
  const { t } = useTranslation();
  const f = useFormats();
  const { nextFree, tz, view } = state;
  return (
    <div className="pub-empty-period" role="status" data-testid="pub-empty">
      <p>{view === 'week' ? t('free.noneWeek') : t('free.noneMonth')}</p>
      {nextFree !== null ? (
        <>
          <p className="muted">{t('free.next', { when: f.dateTime(nextFree, tz) })}</p>
          <button type="button" className="btn btn-primary" onClick={() => state.goToDate(dateInZone(nextFree, tz))}>
            {t('free.goNext')}
          </button>
        </>
      ) : (
        <p className="muted">{t('free.noneAhead')}</p>
      )}
    </div>
  );
}

/** Loading, the clock-change and freshness notices, the week or month, the list, the owner's zone. */
function PublicAvailabilityBody({ state, onPropose }: { state: PublicAvailabilityState; onPropose: (t: ProposeTarget) => void }) {
  const { t } = useTranslation();
  const f = useFormats();
  const { status, data, view, dates, segments, tz, now, today } = state;
  const loaded = status === 'loaded' && data !== null;
  const notices = useZoneChangeNotices(loaded ? data.zone_changes : undefined, data?.user_timezone ?? tz, tz);
  const empty = !segments.some((s) => s.endMs > now);
  return (
    <>
      {status === 'loading' && (
        <div className="pub-loading" role="status">
          <span className="spinner" /> {t('page.loading')}
        </div>
      )}
      {notices.map((text) => (
        <p key={text} className="pub-zone-change muted small" role="note" data-testid="pub-zone-change">
          {text}
        </p>
      ))}
      {loaded && data.stale && (
        <p className="pub-stale" role="status" data-testid="pub-stale">
          {data.as_of ? t('page.staleAt', { when: f.dateTime(Date.parse(data.as_of), tz) }) : t('page.stale')}
        </p>
      )}
      {loaded && empty && <EmptyPeriod state={state} />}
      {loaded && view === 'week' && !empty && <DayStrip state={state} onPropose={onPropose} />}
      {loaded && view === 'week' && <WeekGrid dates={dates} segments={segments} tz={tz} now={now} today={today} onPropose={onPropose} />}
      {loaded && view === 'month' && (
        <MonthGrid dates={dates} segments={segments} today={today} tz={tz} selected={state.selectedDay} onSelect={state.selectDay} onPropose={onPropose} />
      )}
      {loaded && view === 'week' && <FreeList dates={dates} segments={segments} tz={tz} onPropose={onPropose} />}
      {data && data.user_timezone && data.user_timezone !== tz && (
        <p className="muted small pub-owner-tz">{t('page.ownerZone', { ownerZone: data.user_timezone.replace(/_/g, ' '), zone: tz.replace(/_/g, ' ') })}</p>
      )}
    </>
  );
}

/** "Powered by Avail": in an embed, a new-tab link to the full page (with the personal key). */
function PublicFooter({ slug, linkKey, embed }: { slug: string; linkKey?: string; embed: boolean }) {
  const { t } = useTranslation();
  const link = (chunk: string) =>
    embed ? (
      <a href={`/${encodeURIComponent(slug)}${linkKey ? `?key=${encodeURIComponent(linkKey)}` : ''}`} target="_blank" rel="noopener noreferrer">
        {chunk}
      </a>
    ) : (
      <a href="/">{chunk}</a>
    );
  return <footer className="pub-footer">{richText(t('page.footer'), { link })}</footer>;
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
