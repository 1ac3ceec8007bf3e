/**
 * Links (spec §2 Links): username (once every 14 days), the public link from GET /me/links with
 * Copy, and an e-mail text the server writes from the owner's next free windows (spec §8: on
 * failure the server's default text is used, with an error and an info alert).
 */
import { useEffect, useState } from 'react';
import { api, ApiError, serverMessage, type GeneratedEmailText } from '@avail/shared/api/api-client.ts';
import { defaultEmailText as defaultText } from '@avail/shared/email-text.ts';
import { dataAreas, useSession } from '../../data/session.tsx';
import { TimezoneOptions } from '../../components/timezone-options.tsx';
import { useAlert } from '../../components/ui/alert.tsx';
import { useUsernameCheck } from '../../components/use-username-check.ts';
import { browserTimeZone } from '../../lib/time.ts';
import { useCopy } from '../../components/use-copy.ts';
import { useStore } from './use-store.ts';
import { PersonalLinksCard, useShareLinks } from './personal-links-card.tsx';
import { ShareViaField, useShareVia } from './share-via-field.tsx';
import { displayLink, embedSnippetOf, freeBusyFeedsOf, publicLinkBase, publicLinkOf } from '../../lib/public-link.ts';

/** spec §8: the failure message of 'Generate New Text'. */
export const GENERATE_FAILED_TEXT = 'Failed to generate email text. Using default.';
/** Info alert when the server found no free window to list (the default text is used). */
export const NO_FREE_TIMES_TEXT = 'No free times in the next 14 days were found, so the default text is shown.';

/** The start of a text on one line, for the 'Using default text: ...' alert. */
export function textPreview(text: string, max = 60): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, max).trimEnd();
}

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
  const textCopy = useCopy();
  const alert = useAlert();
  const textAlert = useAlert();
  const [value, setValue] = useState('');
  // Clearing the field says 'Username is required'; an untouched empty field says nothing.
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [text, setText] = useState('');
  const [generated, setGenerated] = useState(false);
  const [generating, setGenerating] = useState(false);
  const [zone, setZone] = useState(() => user?.timezone || browserTimeZone());
  const [context, setContext] = useState('');
  const canChange = p ? p.can_change_username : true;
  const check = useUsernameCheck(value, current, touched);
  const available = check.status === 'available';

  useEffect(() => setValue(current), [current]);
  // The template follows the name and link until the owner generates a text of their own.
  useEffect(() => {
    if (!generated) setText(defaultText(user?.name ?? '', link));
  }, [user?.name, link, generated]);

  async function save() {
    if (!canChange) {
      alert.show('error', 'Username changes are not currently allowed.');
      return;
    }
    setSaving(true);
    try {
      await api.updateUsername(value);
      alert.show('success', 'Username updated successfully!');
      await Promise.all([profile.reload(true), links.reload(true), refreshUser()]);
    } catch (e) {
      alert.show('error', serverMessage(e) ?? 'Failed to save username. Please try again.');
    } finally {
      setSaving(false);
    }
  }

  async function generate() {
    setGenerating(true);
    textAlert.clear();
    try {
      const res = await api.generateEmailText({ context: context.trim() || undefined, timezone: zone });
      setText(res.text);
      setGenerated(true);
      if (res.default) textAlert.show('info', NO_FREE_TIMES_TEXT);
    } catch (e) {
      // The server answers a failure with its default text (`{ success: false, text, error }`).
      const body = e instanceof ApiError ? (e.body as Partial<GeneratedEmailText> | null) : null;
      const fallback = body && typeof body.text === 'string' && body.text.trim() ? body.text : defaultText(user?.name ?? '', link);
      setText(fallback);
      setGenerated(true);
      textAlert.show('error', GENERATE_FAILED_TEXT);
      textAlert.add('info', `Using default text: ${textPreview(fallback)}...`);
    } finally {
      setGenerating(false);
    }
  }

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
      <section className="card">
        <h2 id="username-title" className="card-title">
          Username
        </h2>
        <p className="muted small" data-testid="username-rule">
          {canChange
            ? 'You can change your username once every 14 days.'
            : `You can change your username again in ${p?.days_until_change ?? 0} ${p?.days_until_change === 1 ? 'day' : 'days'}.`}
        </p>
        <div className="field">
          <label htmlFor="links-username">Username</label>
          <div className="input-prefix">
            <span aria-hidden="true">{displayLink(publicLinkBase(user))}/</span>
            <input
              id="links-username"
              value={value}
              disabled={!canChange}
              onChange={(e) => {
                setTouched(true);
                setValue(e.target.value.trim());
              }}
              aria-describedby="links-username-status"
            />
          </div>
          <p id="links-username-status" className="username-status" aria-live="polite">
            {check.status === 'current' ? '' : check.message}
          </p>
        </div>
        <button type="button" className="btn btn-primary" disabled={!available || saving || !canChange} onClick={() => void save()}>
          {saving ? 'Saving...' : 'Save username'}
        </button>
      </section>
      <section className="card">
        <h2 id="email-text-title" className="card-title">
          Email text
        </h2>
        <p className="muted small">Generate a friendly message that lists your next free times, then copy it into an e-mail.</p>
        {textAlert.node}
        <div className="email-text-options">
          <div className="field">
            <label htmlFor="email-text-zone">Times shown in</label>
            <select id="email-text-zone" value={zone} onChange={(e) => setZone(e.target.value)}>
              <TimezoneOptions current={zone} />
            </select>
          </div>
          <div className="field">
            <label htmlFor="email-text-context">What is it for? (optional)</label>
            <input
              id="email-text-context"
              value={context}
              maxLength={200}
              placeholder="e.g. a 30-minute intro call"
              onChange={(e) => setContext(e.target.value)}
            />
          </div>
        </div>
        <div className="field">
          <label htmlFor="email-text">Email text</label>
          <textarea id="email-text" rows={10} value={text} onChange={(e) => setText(e.target.value)} aria-busy={generating} />
        </div>
        <div className="toolbar email-actions">
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void generate()} disabled={generating}>
            {generating ? 'Generating...' : 'Generate New Text'}
          </button>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => void textCopy.copy(text)} aria-live="polite">
            {textCopy.copied ? 'Copied!' : 'Copy Email Text'}
          </button>
        </div>
      </section>
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
