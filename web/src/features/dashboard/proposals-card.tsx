/**
 * 'Proposed times' on the owner's dashboard (issues 4, 24): visitors' proposals, newest first —
 * pending, confirmed, declined and cancelled — in the owner's zone (and the visitor's beside it
 * when it differs), with the owner's decision in one step: Confirm, Decline (optional message) and,
 * for a confirmed meeting, Cancel meeting (optional message). Reply (mailto the visitor) and
 * Dismiss stay.
 *
 * The list is the device database's (live, offline too; REST until it has synced). A decision goes
 * straight to the server when it can be reached — a 409's reason is shown next to the proposal —
 * else it is saved on the device and shown as pending until the server's answer replicates back.
 * Opened at `#proposals` the card scrolls into view; at `#proposal-<id>` (a notification or the
 * tray) that proposal does, highlighted.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { api } from '@avail/shared/api/api-client.ts';
import type { ProposalAction } from '@avail/shared/schemas/proposal.schema.ts';
import { PROPOSAL_MESSAGE_MAX, PROPOSAL_MESSAGE_TOO_LONG } from '@avail/shared/schemas/proposal-limits.ts';
import { MessageField } from '../../components/message-field.tsx';
import { useSession } from '../../data/session.tsx';
import { useAlert } from '../../components/ui/alert.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useOwnerFormats, type OwnerFormats } from '../../data/use-owner-formats.ts';
import { actionErrorText, decideProposal, withAnswers, type ProposalView } from '../../data/proposals.ts';
import { useProposals } from '../../data/use-proposals.ts';
import { browserTimeZone } from '../../lib/time.ts';

const LOAD_ERROR = 'Failed to load proposals. Please try again.';
const DISMISS_ERROR = 'Failed to dismiss the proposal. Please try again.';

const STATUS_LABEL: Record<ProposalView['status'], string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  declined: 'Declined',
  cancelled: 'Cancelled',
};

/** What a queued action is called while it waits for the server. */
const PENDING_ACTION_TEXT: Record<ProposalAction, string> = {
  confirm: 'Confirmation pending sync — saved on this device; it is sent when the server is reachable.',
  decline: 'Decline pending sync — saved on this device; it is sent when the server is reachable.',
  cancel: 'Cancellation pending sync — saved on this device; it is sent when the server is reachable.',
};

/** The DOM id of one proposal (`#proposal-<id>` opens it). */
const proposalAnchor = (id: string) => `proposal-${id}`;

type Ask = { action: 'decline' | 'cancel'; proposal: ProposalView } | null;

/** The 'Proposed times' card. */
export function ProposalsCard() {
  const { user } = useSession();
  const tz = user?.timezone || browserTimeZone();
  const fmt = useOwnerFormats();
  const list = useProposals();
  const alert = useAlert();
  // The server's answers to actions made here, until the device database shows them.
  const [answers, setAnswers] = useState<Map<string, ProposalView>>(() => new Map());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [dismissed, setDismissed] = useState<Set<string>>(() => new Set());
  const [ask, setAsk] = useState<Ask>(null);

  const items = list.items ? withAnswers(list.items, answers).filter((p) => !dismissed.has(p.id)) : null;
  // An answer is spent once the list itself shows it (a later change from elsewhere then wins).
  useEffect(() => {
    if (!list.items || answers.size === 0) return;
    const spent = list.items.filter((p) => answers.get(p.id)?.status === p.status);
    if (spent.length === 0) return;
    setAnswers((m) => {
      const next = new Map(m);
      for (const p of spent) next.delete(p.id);
      return next;
    });
  }, [list.items, answers]);

  // Opened from a notification or the tray: bring the card, or the one proposal, into view.
  const { hash, key } = useLocation();
  const section = useRef<HTMLElement>(null);
  const target = hash.startsWith('#proposal-') ? decodeURIComponent(hash.slice('#proposal-'.length)) : null;
  const targetShown = Boolean(target && items?.some((p) => p.id === target));
  useEffect(() => {
    if (hash === '#proposals') void list.reload().then(() => section.current?.scrollIntoView({ block: 'start' }));
    // The list's reload is stable per source; scrolling once per navigation.
  }, [hash, key]);
  useEffect(() => {
    if (!target) return;
    if (!targetShown) {
      void list.reload();
      return;
    }
    document.getElementById(proposalAnchor(target))?.scrollIntoView({ block: 'center' });
  }, [target, targetShown, key]);

  async function decide(p: ProposalView, action: ProposalAction, message?: string): Promise<boolean> {
    setBusy((b) => ({ ...b, [p.id]: true }));
    setErrors(({ [p.id]: _gone, ...rest }) => rest);
    try {
      const res = await decideProposal(list.local, p.id, { action, message });
      if (res.kind === 'done') {
        setAnswers((m) => new Map(m).set(p.id, res.proposal));
        if (!list.fromDevice) void list.reload();
      }
      return true;
    } catch (err) {
      setErrors((e) => ({ ...e, [p.id]: actionErrorText(err) }));
      return false;
    } finally {
      setBusy(({ [p.id]: _done, ...rest }) => rest);
    }
  }

  async function dismiss(p: ProposalView) {
    setDismissed((s) => new Set(s).add(p.id));
    try {
      await api.dismissProposal(p.id);
      if (!list.fromDevice) void list.reload();
    } catch {
      setDismissed((s) => {
        const next = new Set(s);
        next.delete(p.id);
        return next;
      });
      alert.show('error', DISMISS_ERROR);
    }
  }

  const pendingCount = items?.filter((p) => p.status === 'pending').length ?? 0;

  return (
    <section id="proposals" ref={section} className="card proposals-card" aria-labelledby="proposals-title">
      <div className="card-header">
        <div>
          <h2 id="proposals-title" className="card-title">
            Proposed times
          </h2>
          <p className="muted small proposals-sub">Times visitors proposed on your public page. Confirm one and the visitor gets an invitation.</p>
        </div>
        {pendingCount > 0 && (
          <span className="badge" title="Waiting for your answer">
            {pendingCount}
          </span>
        )}
      </div>
      {alert.node}
      {items === null ? (
        <div className="center-block">
          <Spinner size={22} label="Loading proposals" />
        </div>
      ) : list.failed && items.length === 0 ? (
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
          {items.map((p) => (
            <ProposalItem
              key={p.id}
              p={p}
              tz={tz}
              fmt={fmt}
              highlighted={p.id === target}
              busy={Boolean(busy[p.id])}
              error={errors[p.id] ?? null}
              onConfirm={() => void decide(p, 'confirm')}
              onDecline={() => setAsk({ action: 'decline', proposal: p })}
              onCancel={() => setAsk({ action: 'cancel', proposal: p })}
              onDismiss={() => void dismiss(p)}
            />
          ))}
        </ul>
      )}
      <MessageDialog ask={ask} fmt={fmt} tz={tz} onClose={() => setAsk(null)} onSubmit={(a, message) => decide(a.proposal, a.action, message)} />
    </section>
  );
}

function ProposalItem({
  p,
  tz,
  fmt,
  highlighted,
  busy,
  error,
  onConfirm,
  onDecline,
  onCancel,
  onDismiss,
}: {
  p: ProposalView;
  tz: string;
  fmt: OwnerFormats;
  highlighted: boolean;
  busy: boolean;
  error: string | null;
  onConfirm(): void;
  onDecline(): void;
  onCancel(): void;
  onDismiss(): void;
}) {
  const when = fmt.instantRange(p.start_ms, p.end_ms, tz);
  const theirs = p.visitor_timezone && p.visitor_timezone !== tz && sameOffsetDiffers(p.start_ms, tz, p.visitor_timezone) ? fmt.instantRange(p.start_ms, p.end_ms, p.visitor_timezone) : null;
  const subject = `Re: your proposed time ${when}`;
  const waiting = p.pending_action !== null;
  const shownError = error ?? p.error;
  return (
    <li id={proposalAnchor(p.id)} className={`proposal-item${highlighted ? ' proposal-highlight' : ''}`} data-testid="proposal-item" data-status={p.status} tabIndex={highlighted ? -1 : undefined}>
      <div className="proposal-main">
        <p className="proposal-when">
          <strong>{when}</strong> <span className={`badge proposal-status proposal-status-${p.status}`}>{STATUS_LABEL[p.status]}</span>
        </p>
        {theirs && (
          <p className="proposal-theirs muted small">
            {theirs} their time ({p.visitor_timezone})
          </p>
        )}
        <p className="proposal-who">
          {p.name} <span className="muted">· {p.email}</span>
        </p>
        {p.note && <p className="proposal-note">{p.note}</p>}
        {p.status === 'confirmed' && (
          <p className="proposal-calendar small muted">{p.calendar_name ? <>Added to {p.calendar_name}</> : 'Not added to a calendar — the invitation (.ics) was e-mailed to you.'}</p>
        )}
        {(p.status === 'declined' || p.status === 'cancelled') && p.message && <p className="proposal-message small muted">Your message: {p.message}</p>}
        {waiting && (
          <p className="proposal-pending small" role="status">
            {PENDING_ACTION_TEXT[p.pending_action!]}
          </p>
        )}
        {shownError && (
          <p className="field-error proposal-error" role="alert">
            {shownError}
          </p>
        )}
      </div>
      <div className="proposal-actions">
        {p.status === 'pending' && !waiting && (
          <>
            <button type="button" className="btn btn-primary btn-sm" disabled={busy} onClick={onConfirm} aria-label={`Confirm the proposal from ${p.name}`}>
              {busy ? 'Confirming…' : 'Confirm'}
            </button>
            <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={onDecline} aria-label={`Decline the proposal from ${p.name}`}>
              Decline
            </button>
          </>
        )}
        {p.status === 'confirmed' && !waiting && (
          <button type="button" className="btn btn-danger-ghost btn-sm" disabled={busy} onClick={onCancel} aria-label={`Cancel the meeting with ${p.name}`}>
            Cancel meeting
          </button>
        )}
        <a className="btn btn-secondary btn-sm" href={`mailto:${p.email}?subject=${encodeURIComponent(subject)}`} aria-label={`Reply to ${p.name} by email`}>
          Reply
        </a>
        {p.status !== 'confirmed' && !waiting && (
          <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={onDismiss} aria-label={`Dismiss the proposal from ${p.name}`}>
            Dismiss
          </button>
        )}
      </div>
    </li>
  );
}

/** true when the two zones read the instant differently (so the visitor's time is worth showing). */
function sameOffsetDiffers(t: number, a: string, b: string): boolean {
  try {
    const f = (zone: string) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'short', timeStyle: 'short' }).format(t);
    return f(a) !== f(b);
  } catch {
    return true;
  }
}

/** Decline / Cancel meeting: an optional message to the visitor (≤ PROPOSAL_MESSAGE_MAX characters), then the action. */
function MessageDialog({
  ask,
  fmt,
  tz,
  onClose,
  onSubmit,
}: {
  ask: Ask;
  fmt: OwnerFormats;
  tz: string;
  onClose(): void;
  onSubmit(ask: NonNullable<Ask>, message: string): Promise<boolean>;
}) {
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  const [shown, setShown] = useState<Ask>(null);
  useEffect(() => {
    if (ask) {
      setShown(ask);
      setMessage('');
    }
  }, [ask]);
  const a = ask ?? shown;
  if (!a) return null;
  const decline = a.action === 'decline';
  const tooLong = message.length > PROPOSAL_MESSAGE_MAX;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (sending || tooLong) return;
    setSending(true);
    await onSubmit(a, message);
    setSending(false);
    onClose();
  };
  return (
    <Dialog
      open={ask !== null}
      onOpenChange={(o) => !o && onClose()}
      title={decline ? 'Decline proposal' : 'Cancel meeting'}
      description={
        <>
          {decline ? 'Decline' : 'Cancel'} {a.proposal.name}&apos;s {decline ? 'proposed time' : 'meeting'} {fmt.instantRange(a.proposal.start_ms, a.proposal.end_ms, tz)}?{' '}
          {decline ? 'They get an e-mail with your message and your next free times.' : 'The event is removed and they get a cancellation by e-mail.'}
        </>
      }
    >
      <form onSubmit={(e) => void submit(e)} className="proposal-message-form">
        <MessageField
          id="proposal-message"
          label={`Message to ${a.proposal.name} (optional)`}
          rows={4}
          max={PROPOSAL_MESSAGE_MAX}
          tooLongText={PROPOSAL_MESSAGE_TOO_LONG}
          value={message}
          onChange={setMessage}
        />
        <div className="dialog-footer">
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            {decline ? 'Keep it' : 'Keep meeting'}
          </button>
          <button type="submit" className="btn btn-danger" disabled={sending || tooLong}>
            {sending ? (decline ? 'Declining…' : 'Cancelling…') : decline ? 'Decline' : 'Cancel meeting'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
