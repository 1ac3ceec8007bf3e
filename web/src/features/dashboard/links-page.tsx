/**
 * Links (spec §2 Links): the public link from GET /me/links with Copy, the personal links, the
 * calendar feeds and the embed snippet, the username (once every 14 days: username-card.tsx) and an
 * e-mail text the server writes from the owner's next free windows (email-text-card.tsx).
 */
import { api } from '@avail/shared/api/api-client.ts';
import { dataAreas, useSession } from '../../data/session.tsx';
import { useAlert } from '../../components/ui/alert.tsx';
import { browserTimeZone } from '../../lib/time.ts';
import { useCopy } from '../../components/use-copy.ts';
import { useStore } from './use-store.ts';
import { PersonalLinksCard, useShareLinks } from './personal-links-card.tsx';
import { ShareViaField, useShareVia } from './share-via-field.tsx';
import { UsernameCard } from './username-card.tsx';
import { EmailTextCard } from './email-text-card.tsx';
import { embedSnippetOf, freeBusyFeedsOf, publicLinkBase, publicLinkOf } from '../../lib/public-link.ts';

/** The owner's Links screen. */
export default function LinksPage() {
  const { user, refreshUser } = useSession();
  const profile = useStore('profile', () => api.profile());
  const links = useStore('links', dataAreas.links);
  const p = profile.data?.profile;
  const current = p?.username ?? user?.username ?? '';
  const link = links.data?.links?.[0]?.url ?? publicLinkOf(user, current || 'username');
  const linkCopy = useCopy();
  const shareLinks = useShareLinks();
  const feedVia = useShareVia(shareLinks.data);
  const embedVia = useShareVia(shareLinks.data);
  const feeds = current ? freeBusyFeedsOf(publicLinkBase(user), current, feedVia.key) : null;
  const alert = useAlert();

  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Links</h1>
          <p className="muted">Your public availability link and a ready-to-send message.</p>
        </div>
      </div>
      {alert.node}
      <section className="card">
        <h2 id="public-link-title" className="card-title">
          Your public link
        </h2>
        <div className="copy-row">
          <code className="link-box" data-testid="public-link" tabIndex={0}>
            {link}
          </code>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void linkCopy.copy(link)} aria-live="polite">
            {linkCopy.copied ? 'Copied!' : 'Copy'}
          </button>
        </div>
        {!current && <p className="muted small">Set a username below to get your link.</p>}
        {shareLinks.data?.plain_link_enabled === false && (
          <p className="small text-danger" data-testid="plain-link-off">
            Off: this link shows “not found”. Only people with a personal link can see your availability.
          </p>
        )}
      </section>
      <PersonalLinksCard tz={user?.timezone || browserTimeZone()} hasUsername={Boolean(current)} store={shareLinks} />
      {feeds && (
        <section className="card" aria-labelledby="subscribe-title">
          <h2 id="subscribe-title" className="card-title">
            Subscribe in your calendar
          </h2>
          <p className="muted small">
            The next 8 weeks of your free times as a calendar feed, refreshed every 15 minutes. Only times are shared — never what your events are.
          </p>
          <ShareViaField id="feed-via" via={feedVia} />
          <FeedRow label="Free/busy (Outlook, Thunderbird and other calendar apps)" url={feeds.freeBusy} testId="feed-freebusy" copyName="Copy free/busy feed" />
          <FeedRow label="Free times as events (Google Calendar, Apple Calendar: add by URL)" url={feeds.events} testId="feed-events" copyName="Copy events feed" />
        </section>
      )}
      {current && (
        <section className="card" aria-labelledby="embed-title">
          <h2 id="embed-title" className="card-title">
            Embed on your website
          </h2>
          <p className="muted small">Paste this where your free times should appear. Visitors can propose a time right there; the frame fits its content.</p>
          <ShareViaField id="embed-via" via={embedVia} />
          <FeedRow label="HTML snippet" url={embedSnippetOf(publicLinkBase(user), current, embedVia.key)} testId="embed-snippet" copyName="Copy embed snippet" />
        </section>
      )}
      <UsernameCard profile={p} current={current} user={user} alert={alert} onSaved={() => Promise.all([profile.reload(true), links.reload(true), refreshUser()])} />
      <EmailTextCard name={user?.name ?? ''} link={link} initialZone={user?.timezone || browserTimeZone()} />
    </div>
  );
}

/** One calendar-feed address with its own Copy button (Links → "Subscribe in your calendar"). */
function FeedRow({ label, url, testId, copyName }: { label: string; url: string; testId: string; copyName: string }) {
  const { copied, copy } = useCopy();
  return (
    <>
      <p className="small">{label}</p>
      <div className="copy-row">
        <code className="link-box" data-testid={testId} tabIndex={0}>
          {url}
        </code>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copy(url)} aria-live="polite" aria-label={copied ? 'Copied!' : copyName}>
          {copied ? 'Copied!' : 'Copy'}
        </button>
      </div>
    </>
  );
}
