/**
 * Links → "Personal links" (issue 14 item 2): a link per client or group, each with its own key,
 * optional expiry and view count; revoking one (or its expiry) makes it answer like a link that
 * never existed. The switch "Only people with a personal link" turns the plain `/{username}` link off.
 */
import { useState, type FormEvent } from 'react';
import { api, serverMessage, type ShareLink, type ShareLinks } from '@avail/shared/api/api-client.ts';
import { useOwnerFormats, type OwnerFormats } from '../../data/use-owner-formats.ts';
import { useAlert } from '../../components/ui/alert.tsx';
import { useCopy } from '../../components/use-copy.ts';
import { useStore } from './use-store.ts';

/** Expiry choices of a new link, in days (null = never). */
const EXPIRY_CHOICES: ReadonlyArray<{ label: string; days: number | null }> = [
  { label: 'Never expires', days: null },
  { label: 'Expires in 1 day', days: 1 },
  { label: 'Expires in 7 days', days: 7 },
  { label: 'Expires in 30 days', days: 30 },
  { label: 'Expires in 90 days', days: 90 },
];

/** 'Tue 24 Nov, 09:00' (en-GB) / 'Tue, Nov 24, 9:00 AM' (en-US) of an ISO instant in the owner's zone, in the owner's formats. */
function when(iso: string, tz: string, fmt: OwnerFormats): string {
  return fmt.dateTime(Date.parse(iso), tz);
}

/** What a link's expiry line says (dates in the owner's formats `fmt`). */
function expiryText(link: Pick<ShareLink, 'expires_at' | 'expired'>, tz: string, fmt: OwnerFormats): string {
  if (!link.expires_at) return 'Never expires';
  return link.expired ? `Expired ${when(link.expires_at, tz, fmt)} — it no longer opens your page` : `Expires ${when(link.expires_at, tz, fmt)}`;
}

/** GET /me/share-links as a cached data area (the Links screen and this card read the same). */
export function useShareLinks() {
  return useStore<ShareLinks>('share-links', () => api.shareLinks());
}

/** The card; `tz` is the owner's zone (dates are shown in it); `store` from useShareLinks. */
export function PersonalLinksCard({ tz, hasUsername, store }: { tz: string; hasUsername: boolean; store: ReturnType<typeof useShareLinks> }) {
  const alert = useAlert();
  const [label, setLabel] = useState('');
  const [labelError, setLabelError] = useState('');
  const [days, setDays] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  // The switch shows the new setting at once (its request in flight), then the server's answer.
  const [pendingPlain, setPendingPlain] = useState<boolean | null>(null);
  const links = store.data?.share_links ?? [];
  const plainOn = pendingPlain ?? store.data?.plain_link_enabled ?? true;

  async function create(e: FormEvent) {
    e.preventDefault();
    if (!label.trim()) {
      setLabelError('Give the link a label, e.g. who it is for.');
      return;
    }
    setLabelError('');
    setCreating(true);
    try {
      const expires_at = days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString();
      await api.createShareLink({ label: label.trim(), expires_at });
      setLabel('');
      alert.show('success', 'Personal link created. Copy it and send it to them.');
      await store.reload(true);
    } catch (err) {
      alert.show('error', serverMessage(err) ?? 'Could not create the link. Please try again.');
    } finally {
      setCreating(false);
    }
  }

  async function revoke(link: ShareLink) {
    try {
      await api.revokeShareLink(link.id);
      alert.show('success', `"${link.label}" was revoked. It no longer opens your page.`);
    } catch (err) {
      alert.show('error', serverMessage(err) ?? 'Could not revoke the link. Please try again.');
    }
    await store.reload(true);
  }

  async function switchPlain(enabled: boolean) {
    setPendingPlain(enabled);
    try {
      await api.setPlainLink(enabled);
      alert.show('success', enabled ? 'Your public link is on again.' : 'Your public link is off: only people with a personal link can see your availability.');
      await store.reload(true);
    } catch (err) {
      alert.show('error', serverMessage(err) ?? 'Could not change the setting. Please try again.');
    } finally {
      setPendingPlain(null);
    }
  }

  return (
    <section className="card" aria-labelledby="personal-links-title" data-testid="personal-links">
      <h2 id="personal-links-title" className="card-title">
        Personal links
      </h2>
      <p className="muted small">
        Give each client or group their own link and see how often it is opened. Revoke it, or let it expire, and it stops working at once — it then looks like a link that never existed.
      </p>
      {alert.node}
      <label className="checkbox-row">
        <input type="checkbox" checked={!plainOn} disabled={pendingPlain !== null || store.data === undefined} onChange={(e) => void switchPlain(!e.target.checked)} />
        <span>Only people with a personal link (your public link shows “not found” to everyone else)</span>
      </label>
      {hasUsername ? (
        <form className="share-link-form" onSubmit={(e) => void create(e)} noValidate>
          <div className="field">
            <label htmlFor="share-link-label">Who is it for?</label>
            <input
              id="share-link-label"
              value={label}
              maxLength={80}
              placeholder="e.g. Acme Corp"
              aria-invalid={labelError ? true : undefined}
              aria-describedby={labelError ? 'share-link-label-error' : undefined}
              onChange={(e) => setLabel(e.target.value)}
            />
            {labelError && (
              <p id="share-link-label-error" className="field-error" role="alert">
                {labelError}
              </p>
            )}
          </div>
          <div className="field">
            <label htmlFor="share-link-expiry">Expiry</label>
            <select id="share-link-expiry" value={days ?? ''} onChange={(e) => setDays(e.target.value === '' ? null : Number(e.target.value))}>
              {EXPIRY_CHOICES.map((c) => (
                <option key={c.label} value={c.days ?? ''}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn btn-primary btn-sm" disabled={creating}>
            {creating ? 'Creating...' : 'Create link'}
          </button>
        </form>
      ) : (
        <p className="muted small">Set a username below to create personal links.</p>
      )}
      {links.length > 0 && (
        <ul className="share-links" aria-label="Your personal links">
          {links.map((l) => (
            <ShareLinkRow key={l.id} link={l} tz={tz} onRevoke={() => revoke(l)} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** One personal link: label, address with Copy, expiry, views, and Revoke (asks once). */
function ShareLinkRow({ link, tz, onRevoke }: { link: ShareLink; tz: string; onRevoke: () => Promise<void> }) {
  const { copied, copy } = useCopy();
  const fmt = useOwnerFormats();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <li className={`share-link${link.expired ? ' is-expired' : ''}`} data-testid="share-link">
      <div className="share-link-head">
        <strong>{link.label}</strong>
        <span className="muted small" data-testid="share-link-views">
          {link.views === 1 ? '1 view' : `${link.views} views`}
          {link.last_viewed_at ? ` · last ${when(link.last_viewed_at, tz, fmt)}` : ''}
        </span>
      </div>
      {link.url && (
        <div className="copy-row">
          <code className="link-box" tabIndex={0} data-testid="share-link-url">
            {link.url}
          </code>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copy(link.url!)} aria-label={copied ? 'Copied!' : `Copy link for ${link.label}`}>
            {copied ? 'Copied!' : 'Copy'}
          </button>
        </div>
      )}
      <div className="share-link-foot">
        <span className={`small${link.expired ? ' text-danger' : ' muted'}`}>{expiryText(link, tz, fmt)}</span>
        {confirming ? (
          <span className="toolbar" role="group" aria-label={`Revoke ${link.label}?`}>
            <span className="small">It stops working at once.</span>
            <button
              type="button"
              className="btn btn-danger btn-sm"
              disabled={busy}
              onClick={() => {
                setBusy(true);
                void onRevoke().finally(() => setBusy(false));
              }}
            >
              Revoke now
            </button>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setConfirming(true)} aria-label={`Revoke ${link.label}`}>
            Revoke
          </button>
        )}
      </div>
    </li>
  );
}
