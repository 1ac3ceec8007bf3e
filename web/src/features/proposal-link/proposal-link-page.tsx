/**
 * `/proposal#t=<token>` (issue 24): the page the owner's proposal e-mail links to — Confirm or
 * Decline in one click, without signing in. It reads the token from the fragment, asks the server
 * what the link does (inspect) and shows the proposal — the visitor, the time in the owner's zone,
 * the note — with ONE button. It never acts on load: mail scanners open links; only the button
 * does (act), once. Errors: 404 'This link is not valid.', 410 (expired, used) and 409 (no longer
 * free, already decided) in the server's words. Owner-facing: English.
 */
import '../../styles/app.css';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { api, type ProposalLinkInfo } from '@avail/shared/api/api-client.ts';
import { PROPOSAL_MESSAGE_MAX, PROPOSAL_MESSAGE_TOO_LONG } from '@avail/shared/schemas/proposal-limits.ts';
import { MessageField } from '../../components/message-field.tsx';
import { Logo } from '../../components/ui/logo.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useOwnerFormats } from '../../data/use-owner-formats.ts';
import { INVALID_LINK_MESSAGE, linkErrorText, tokenFromHash } from './proposal-link.ts';

type State =
  | { step: 'loading' }
  | { step: 'failed'; message: string }
  | { step: 'ready'; info: ProposalLinkInfo }
  | { step: 'done'; info: ProposalLinkInfo };

export default function ProposalLinkPage() {
  // Another link opened in the same tab (only the fragment changes) starts afresh.
  const { hash } = useLocation();
  const token = tokenFromHash(hash);
  return <ProposalLinkView key={token ?? ''} token={token} />;
}

function ProposalLinkView({ token }: { token: string | null }) {
  const [state, setState] = useState<State>(() => (token ? { step: 'loading' } : { step: 'failed', message: INVALID_LINK_MESSAGE }));
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  const [actError, setActError] = useState<string | null>(null);
  const fmt = useOwnerFormats();

  useEffect(() => {
    document.title = 'Your proposal link · Avail';
    if (!token) return;
    let live = true;
    api.inspectProposalLink(token).then(
      (info) => live && setState({ step: 'ready', info }),
      (err: unknown) => live && setState({ step: 'failed', message: linkErrorText(err) }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  async function act(e: FormEvent) {
    e.preventDefault();
    if (state.step !== 'ready' || !token || sending || message.length > PROPOSAL_MESSAGE_MAX) return;
    setSending(true);
    setActError(null);
    try {
      const res = await api.actOnProposalLink(token, state.info.action === 'decline' ? message : undefined);
      setState({ step: 'done', info: { ...state.info, proposal: { ...state.info.proposal, ...res.proposal } } });
    } catch (err) {
      setActError(linkErrorText(err));
    } finally {
      setSending(false);
    }
  }

  let body;
  if (state.step === 'loading') {
    body = (
      <div className="center-block">
        <Spinner size={24} label="Loading the proposal" />
      </div>
    );
  } else if (state.step === 'failed') {
    body = (
      <>
        <h1 className="auth-title">Proposal link</h1>
        <p role="alert" className="alert alert-warning proposal-link-error">
          {state.message}
        </p>
        <p className="muted">
          You can still answer every proposal on your <Link to="/app/dashboard#proposals">dashboard</Link>.
        </p>
      </>
    );
  } else {
    const { info } = state;
    const p = info.proposal;
    const zone = info.owner_timezone;
    const decline = info.action === 'decline';
    const when = fmt.instantRange(Date.parse(p.start), Date.parse(p.end), zone);
    const done = state.step === 'done';
    const tooLong = message.length > PROPOSAL_MESSAGE_MAX;
    // Decided meanwhile (on the dashboard, the tray or the other link): nothing left to ask.
    const answered = !done && p.status !== 'pending';
    body = (
      <>
        <h1 className="auth-title">{done ? (decline ? 'Proposal declined' : 'Meeting confirmed') : answered ? 'Already answered' : decline ? 'Decline this proposal?' : 'Confirm this meeting?'}</h1>
        <dl>
          <dt>Visitor</dt>
          <dd>{p.name}</dd>
          <dt>Time</dt>
          <dd>
            {when} <span className="muted">({zone})</span>
          </dd>
          {p.note && (
            <>
              <dt>Note</dt>
              <dd>{p.note}</dd>
            </>
          )}
        </dl>
        {done ? (
          <>
            <p role="status" className="proposal-link-result">
              {decline ? `${p.name} is told by e-mail, with your next free times.` : `${p.name} gets an invitation by e-mail.`}
            </p>
            <Link to="/app/dashboard#proposals" className="btn btn-secondary">
              Open your dashboard
            </Link>
          </>
        ) : answered ? (
          <>
            <p role="alert" className="alert alert-warning proposal-link-error">
              This proposal has already been {p.status}.
            </p>
            <Link to="/app/dashboard#proposals" className="btn btn-secondary">
              Open your dashboard
            </Link>
          </>
        ) : (
          <form onSubmit={(e) => void act(e)} className="proposal-message-form">
            {decline && (
              <MessageField
                id="decline-message"
                label={`Message to ${p.name} (optional)`}
                rows={4}
                max={PROPOSAL_MESSAGE_MAX}
                tooLongText={PROPOSAL_MESSAGE_TOO_LONG}
                value={message}
                onChange={setMessage}
              />
            )}
            {actError && (
              <p role="alert" className="field-error">
                {actError}
              </p>
            )}
            <button type="submit" className={`btn ${decline ? 'btn-danger' : 'btn-primary'}`} disabled={sending || tooLong}>
              {sending ? (decline ? 'Declining…' : 'Confirming…') : decline ? 'Decline' : 'Confirm meeting'}
            </button>
          </form>
        )}
      </>
    );
  }

  return (
    <div className="auth-page proposal-link-page">
      <header className="auth-top">
        <Logo />
      </header>
      <main className="auth-card card proposal-link-card">{body}</main>
    </div>
  );
}
