/**
 * The 'Propose a time' form (issue 4) inside the dialog (propose-dialog.tsx): start (quarter
 * hours inside the free window) and a length that fits, the visitor's name, e-mail and an optional
 * note; `POST /api/public/{username}/proposals` (spec §4). Client checks use the server's messages;
 * a 422 `not_free` answer calls `onStale` (the page refetches its windows).
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { api, ApiError, serverMessage } from '@avail/shared/api/api-client.ts';
import { defaultDuration, fittingDurations, formatInstantRange, formatTime } from '../../lib/time.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { validateProposal, type Errors, type ProposeTarget } from './propose-validation.ts';

const NOTE_MAX = 1000;
const NETWORK_MESSAGE = 'Unable to connect. Please check your internet connection and try again.';
const SERVER_MESSAGE = 'Something went wrong on our end. Please try again later.';

/** A button that closes the dialog. */
export function CloseButton({ onClose, className, label, children, buttonRef }: { onClose: () => void; className: string; label?: string; children: ReactNode; buttonRef?: Ref<HTMLButtonElement> }) {
  return (
    <button ref={buttonRef} type="button" className={className} aria-label={label} onClick={onClose}>
      {children}
    </button>
  );
}

/**
 * `starts`: the proposable start instants (UTC ms, not empty); `startRef`: the start select, which
 * the dialog focuses when it opens; `onSent(message)` after the server accepted the proposal.
 */
export function ProposeForm({
  slug,
  linkKey,
  ownerName,
  tz,
  target,
  starts,
  startRef,
  onClose,
  onStale,
  onSent,
}: {
  slug: string;
  linkKey?: string;
  ownerName: string;
  tz: string;
  target: ProposeTarget;
  starts: number[];
  startRef: Ref<HTMLSelectElement>;
  onClose: () => void;
  onStale: () => void;
  onSent: (message: string) => void;
}) {
  const id = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const initialStart = useMemo(() => {
    if (!starts.length) return undefined;
    const at = target.atMs ?? target.startMs;
    // The last quarter at or before the pointed instant.
    let pick = starts[0];
    for (const s of starts) if (s <= at) pick = s;
    return pick;
  }, [starts, target]);
  const [start, setStart] = useState<number | undefined>(initialStart);
  const durations = start === undefined ? [] : fittingDurations(start, target.endMs);
  const [duration, setDuration] = useState<number | undefined>(() => (initialStart === undefined ? undefined : defaultDuration(fittingDurations(initialStart, target.endMs))));
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const zoneLabel = tz.replace(/_/g, ' ');

  // Keep the length valid when the start moves later.
  useEffect(() => {
    if (start === undefined) return;
    const fits = fittingDurations(start, target.endMs);
    if (duration === undefined || !fits.includes(duration)) setDuration(defaultDuration(fits));
  }, [start, duration, target.endMs]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (sending) return;
    const errs = validateProposal(name, email);
    setErrors(errs);
    setFailure(null);
    if (errs.name) return nameRef.current?.focus();
    if (errs.email) return emailRef.current?.focus();
    if (start === undefined || duration === undefined) return;
    setSending(true);
    try {
      const res = await api.proposeTime(slug, {
        start: new Date(start).toISOString(),
        end: new Date(start + duration * 60_000).toISOString(),
        name: name.trim(),
        email: email.trim(),
        note: note.trim(),
        visitor_timezone: tz,
      }, linkKey);
      onSent(res.message || `Your proposal was sent. ${ownerName} will confirm by email.`);
    } catch (err) {
      if (err instanceof ApiError) {
        setFailure(serverMessage(err) ?? (err.status >= 500 ? SERVER_MESSAGE : err.message));
        if (err.status === 422 && err.code === 'not_free') onStale();
      } else setFailure(NETWORK_MESSAGE);
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="form propose-form" onSubmit={submit} noValidate>
      <div className="propose-when">
        <div className="field">
          <label htmlFor={`${id}-start`}>Start time</label>
          <select ref={startRef} id={`${id}-start`} value={start} onChange={(e) => setStart(Number(e.target.value))}>
            {starts.map((s) => (
              <option key={s} value={s}>
                {formatTime(s, tz)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-duration`}>Duration</label>
          <select id={`${id}-duration`} value={duration} onChange={(e) => setDuration(Number(e.target.value))}>
            {durations.map((m) => (
              <option key={m} value={m}>
                {m < 60 ? `${m} min` : m === 60 ? '1 hour' : `${m / 60} hours`}
              </option>
            ))}
          </select>
        </div>
      </div>
      {start !== undefined && duration !== undefined && (
        <p className="propose-summary" aria-live="polite">
          Your proposal: <strong>{formatInstantRange(start, start + duration * 60_000, tz)}</strong>
          <span className="muted"> · times in {zoneLabel}</span>
        </p>
      )}
      <div className="field">
        <label htmlFor={`${id}-name`}>Your name</label>
        <input
          ref={nameRef}
          id={`${id}-name`}
          autoComplete="name"
          maxLength={100}
          value={name}
          aria-invalid={Boolean(errors.name)}
          aria-describedby={errors.name ? `${id}-name-error` : undefined}
          onChange={(e) => {
            setName(e.target.value);
            if (errors.name) setErrors((x) => ({ ...x, name: undefined }));
          }}
        />
        {errors.name && (
          <p id={`${id}-name-error`} className="field-error">
            {errors.name}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-email`}>Your email</label>
        <input
          ref={emailRef}
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          maxLength={254}
          value={email}
          aria-invalid={Boolean(errors.email)}
          aria-describedby={errors.email ? `${id}-email-error` : `${id}-email-hint`}
          onChange={(e) => {
            setEmail(e.target.value);
            if (errors.email) setErrors((x) => ({ ...x, email: undefined }));
          }}
        />
        {errors.email ? (
          <p id={`${id}-email-error`} className="field-error">
            {errors.email}
          </p>
        ) : (
          <p id={`${id}-email-hint`} className="muted small propose-hint">
            {ownerName} replies to this address.
          </p>
        )}
      </div>
      <div className="field">
        <div className="field-label-row">
          <label htmlFor={`${id}-note`}>Note (optional)</label>
          <span className="muted small" id={`${id}-note-count`} aria-live="polite">
            {note.length}/{NOTE_MAX}
          </span>
        </div>
        <textarea
          id={`${id}-note`}
          rows={3}
          maxLength={NOTE_MAX}
          value={note}
          aria-describedby={`${id}-note-count`}
          placeholder="What would you like to talk about?"
          onChange={(e) => setNote(e.target.value.slice(0, NOTE_MAX))}
        />
      </div>
      <p className="propose-notice">
        Nothing is booked until {ownerName} confirms. {ownerName} gets your proposal by email and replies to you.
      </p>
      {failure && (
        <Alert kind="error">
          <p>{failure}</p>
        </Alert>
      )}
      <div className="dialog-footer">
        <CloseButton onClose={onClose} className="btn btn-secondary">
          Cancel
        </CloseButton>
        <button type="submit" className="btn btn-primary" disabled={sending}>
          {sending ? 'Sending...' : 'Send proposal'}
        </button>
      </div>
    </form>
  );
}
