/**
 * 'Propose a time' dialog of the public page (issue 4): the visitor picks a start and a length inside
 * one free window and leaves name, e-mail and a note; the server relays it to the owner by e-mail.
 * Nothing is booked. A native modal `<dialog>` (same classes as components/ui/dialog.tsx; issue 11:
 * no radix on the visitor's page, which runs on Preact's compatibility layer): the browser keeps
 * focus inside and the page behind inert; focus goes to the first field on open and back to the
 * chosen slot on close; Escape, the ✕, Cancel/Close and a click on the backdrop close it.
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type MouseEvent, type ReactNode, type Ref, type SyntheticEvent } from 'react';
import { api, ApiError, serverMessage } from '@avail/shared/api/api-client.ts';
import { defaultDuration, fittingDurations, formatInstantRange, formatTime, quarterHourStarts } from '../../lib/time.ts';
import { Alert } from '../../components/ui/alert.tsx';

/** A free window (or its part on one day) the visitor chose, and the instant they pointed at. */
export interface ProposeTarget {
  startMs: number;
  endMs: number;
  /** Preferred start (week view: where the block was clicked). */
  atMs?: number;
  /** The element to focus again when the dialog closes. */
  returnFocus?: HTMLElement | null;
}

const NOTE_MAX = 1000;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NETWORK_MESSAGE = 'Unable to connect. Please check your internet connection and try again.';
const SERVER_MESSAGE = 'Something went wrong on our end. Please try again later.';

type Errors = Partial<Record<'name' | 'email', string>>;

/** Client checks with the server's messages: 'Name is required', 'Email is required', 'Email is invalid'. */
export function validateProposal(name: string, email: string): Errors {
  const errors: Errors = {};
  if (!name.trim()) errors.name = 'Name is required';
  else if (name.trim().length > 100) errors.name = 'Name must be no more than 100 characters';
  const e = email.trim();
  if (!e) errors.email = 'Email is required';
  else if (e.length > 254 || !EMAIL_PATTERN.test(e) || /[,;<>()"\\[\]]/.test(e)) errors.email = 'Email is invalid';
  return errors;
}

/** The dialog; `target` null means closed. `onStale` runs when the server says the time is no longer free. */
export function ProposeDialog({
  slug,
  linkKey,
  ownerName,
  tz,
  target,
  onClose,
  onStale,
}: {
  slug: string;
  /** A personal link's token, passed on with the proposal. */
  linkKey?: string;
  ownerName: string;
  tz: string;
  target: ProposeTarget | null;
  onClose: () => void;
  onStale: () => void;
}) {
  if (!target) return null;
  return <ProposeContent key={`${target.startMs}-${target.endMs}-${target.atMs ?? ''}`} slug={slug} linkKey={linkKey} ownerName={ownerName} tz={tz} target={target} onClose={onClose} onStale={onStale} />;
}

/** A button that closes the dialog. */
function CloseButton({ onClose, className, label, children, buttonRef }: { onClose: () => void; className: string; label?: string; children: ReactNode; buttonRef?: Ref<HTMLButtonElement> }) {
  return (
    <button ref={buttonRef} type="button" className={className} aria-label={label} onClick={onClose}>
      {children}
    </button>
  );
}

function ProposeContent({
  slug,
  linkKey,
  ownerName,
  tz,
  target,
  onClose,
  onStale,
}: {
  slug: string;
  linkKey?: string;
  ownerName: string;
  tz: string;
  target: ProposeTarget;
  onClose: () => void;
  onStale: () => void;
}) {
  const id = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const startRef = useRef<HTMLSelectElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const starts = useMemo(() => quarterHourStarts(target.startMs, target.endMs, Date.now()), [target]);
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
  const [success, setSuccess] = useState<string | null>(null);

  // Keep the length valid when the start moves later.
  useEffect(() => {
    if (start === undefined) return;
    const fits = fittingDurations(start, target.endMs);
    if (duration === undefined || !fits.includes(duration)) setDuration(defaultDuration(fits));
  }, [start, duration, target.endMs]);

  useEffect(() => {
    if (success) closeRef.current?.focus();
  }, [success]);

  // Open as a modal with the first field (the start time) focused; on close, focus the chosen slot.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    startRef.current?.focus();
    const back = target.returnFocus;
    return () => {
      if (dialog?.open) dialog.close();
      if (back?.isConnected) back.focus();
    };
  }, [target]);

  const onCancel = (e: SyntheticEvent) => {
    e.preventDefault(); // Escape: closing goes through the page's state
    onClose();
  };
  const onBackdrop = (e: MouseEvent<HTMLDialogElement>) => {
    if (e.target !== e.currentTarget) return;
    const r = e.currentTarget.getBoundingClientRect();
    if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) onClose();
  };

  const windowLabel = formatInstantRange(target.startMs, target.endMs, tz);
  const zoneLabel = tz.replace(/_/g, ' ');

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
      setSuccess(res.message || `Your proposal was sent. ${ownerName} will confirm by email.`);
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
    <dialog
      ref={dialogRef}
      className="dialog-content propose-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-description`}
      onCancel={onCancel}
      onClick={onBackdrop}
    >
      <div className="dialog-header">
        <h2 id={`${id}-title`} className="dialog-title">
          Propose a time
        </h2>
        <CloseButton onClose={onClose} className="icon-button" label="Close dialog">
          ✕
        </CloseButton>
      </div>
      <p id={`${id}-description`} className="dialog-description">
        {ownerName} is free <strong>{windowLabel}</strong> ({zoneLabel} time).
      </p>
      {success ? (
        <div className="propose-success">
          <Alert kind="success">
            <p>{success}</p>
          </Alert>
          <p className="muted small">Nothing is booked until {ownerName} confirms. Watch your inbox for the reply.</p>
          <div className="dialog-footer">
            <CloseButton buttonRef={closeRef} onClose={onClose} className="btn btn-primary">
              Close
            </CloseButton>
          </div>
        </div>
      ) : starts.length === 0 ? (
        <div>
          <p role="alert" className="field-error">
            This time has passed. Please pick another time.
          </p>
          <div className="dialog-footer">
            <CloseButton onClose={onClose} className="btn btn-secondary">
              Close
            </CloseButton>
          </div>
        </div>
      ) : (
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
      )}
    </dialog>
  );
}
