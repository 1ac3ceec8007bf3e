/**
 * 'Proposed times' on the owner's dashboard (issue 4): visitors' upcoming proposals, soonest first,
 * in the owner's zone, with a Reply (mailto the visitor) and a Dismiss (optimistic, restored with an
 * error alert when the server refuses). Loads on mount and every 2 minutes, and again when opened
 * at `#proposals` (a proposal notification of the desktop app), then scrolls into view. Times read
 * in the owner's format choice (useOwnerFormats).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { api, type Proposal } from '@avail/shared/api/api-client.ts';
import { DASHBOARD_EVENTS_REFRESH_MS } from '@avail/shared/constants.ts';
import { useSession } from '../../data/session.tsx';
import { useAlert } from '../../components/ui/alert.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useOwnerFormats } from '../../data/use-owner-formats.ts';
import { browserTimeZone } from '../../lib/time.ts';

const LOAD_ERROR = 'Failed to load proposals. Please try again.';
const DISMISS_ERROR = 'Failed to dismiss the proposal. Please try again.';

/** The 'Proposed times' card. */
export function ProposalsCard() {
  const { user } = useSession();
  const tz = user?.timezone || browserTimeZone();
  const fmt = useOwnerFormats();
  const [items, setItems] = useState<Proposal[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const alert = useAlert();

  const load = useCallback(async () => {
    try {
      const res = await api.proposals();
      setItems(res.proposals ?? []);
      setLoadFailed(false);
    } catch {
      setLoadFailed(true);
      setItems((prev) => prev ?? []);
    }
  }, []);

  useEffect(() => {
    void load();
    const t = setInterval(() => void load(), DASHBOARD_EVENTS_REFRESH_MS);
    return () => clearInterval(t);
  }, [load]);

  // Opened from a notification: fetch the new proposal and bring the card into view.
  const { hash, key } = useLocation();
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (hash !== '#proposals') return;
    void load().then(() => section.current?.scrollIntoView({ block: 'start' }));
  }, [hash, key, load]);

  async function dismiss(p: Proposal) {
    setItems((list) => (list ?? []).filter((x) => x.id !== p.id));
    try {
      await api.dismissProposal(p.id);
    } catch {
      setItems((list) => {
        const current = list ?? [];
        if (current.some((x) => x.id === p.id)) return current;
        // Back in its place (the list is soonest first).
        return [...current, p].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
      });
      alert.show('error', DISMISS_ERROR);
    }
  }

  return (
    <section id="proposals" ref={section} className="card proposals-card" aria-labelledby="proposals-title">
      <div className="card-header">
        <div>
          <h2 id="proposals-title" className="card-title">
            Proposed times
          </h2>
          <p className="muted small proposals-sub">Times visitors proposed on your public page. Nothing is booked — reply to confirm.</p>
        </div>
        {items && items.length > 0 && <span className="badge">{items.length}</span>}
      </div>
      {alert.node}
      {items === null ? (
        <div className="center-block">
          <Spinner size={22} label="Loading proposals" />
        </div>
      ) : loadFailed && items.length === 0 ? (
        <p className="muted" role="alert">
          {LOAD_ERROR}
        </p>
      ) : items.length === 0 ? (
        <div className="proposals-empty-state">
          <p className="muted proposals-empty">No proposals yet. When visitors propose a time on your public page, it shows up here.</p>
          {/* What to do next (issue 23 item 10): share the page visitors propose on. */}
          <Link to="/app/links" className="btn btn-secondary btn-sm">
            Share your link
          </Link>
        </div>
      ) : (
        <ul className="proposals-list">
          {items.map((p) => {
            const when = fmt.instantRange(Date.parse(p.start), Date.parse(p.end), tz);
            const subject = `Re: your proposed time ${when}`;
            return (
              <li key={p.id} className="proposal-item" data-testid="proposal-item">
                <div className="proposal-main">
                  <p className="proposal-when">
                    <strong>{when}</strong>
                  </p>
                  <p className="proposal-who">
                    {p.name} <span className="muted">· {p.email}</span>
                  </p>
                  {p.note && <p className="proposal-note">{p.note}</p>}
                </div>
                <div className="proposal-actions">
                  <a className="btn btn-primary btn-sm" href={`mailto:${p.email}?subject=${encodeURIComponent(subject)}`} aria-label={`Reply to ${p.name} by email`}>
                    Reply
                  </a>
                  <button type="button" className="btn btn-secondary btn-sm" onClick={() => void dismiss(p)} aria-label={`Dismiss the proposal from ${p.name}`}>
                    Dismiss
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
