/**
 * The 'Propose a time' form (issue 4) inside the dialog (propose-dialog.tsx): start (quarter
 * hours inside the free window) and a length that fits (propose-when.tsx), the visitor's name, e-mail and an optional
 * note; `POST /api/public/{username}/proposals` (spec §4). Client checks use the server's messages;
 * a 422 `not_free` answer calls `onStale` (the page refetches its windows).
 */
import { useId, useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ApiError, serverMessage } from '@avail/shared/api/api-client.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { MessageField } from '../../components/message-field.tsx';
import { PROPOSAL_NAME_MAX, PROPOSAL_NOTE_MAX } from '@avail/shared/schemas/proposal-limits.ts';
import { validateProposal, type Errors, type ProposeTarget } from './propose-validation.ts';
import { ProposeWhen, useProposeWhen } from './propose-when.tsx';

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
  const { t, i18n } = useTranslation();
  const id = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const { start, duration, setStart, setDuration, durations } = useProposeWhen(starts, target);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

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
        // The page's language: the visitor's later e-mails (confirmation, decline) are written in it.
        language: i18n.language,
      }, linkKey);
      // English: the server's own words; other languages: the same message translated.
      onSent(i18n.language === 'en' && res.message ? res.message : t('propose.sent', { name: ownerName }));
    } catch (err) {
      if (err instanceof ApiError) {
        const known = err.status === 422 && err.code === 'not_free' ? t('propose.notFree') : err.status === 429 ? t('propose.tooMany') : err.status >= 500 ? t('states.serverError') : null;
        // A message the visitor texts do not have (a future check of the server's) stays in its words.
        setFailure(known ?? serverMessage(err) ?? err.message);
        if (err.status === 422 && err.code === 'not_free') onStale();
      } else setFailure(t('states.networkError'));
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="form propose-form" onSubmit={submit} noValidate>
      <ProposeWhen id={id} tz={tz} starts={starts} startRef={startRef} when={{ start, duration, setStart, setDuration, durations }} />
      <div className="field">
        <label htmlFor={`${id}-name`}>{t('propose.name')}</label>
        <input
          ref={nameRef}
          id={`${id}-name`}
          autoComplete="name"
          maxLength={PROPOSAL_NAME_MAX}
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
            {t(`propose.${errors.name}`)}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={`${id}-email`}>{t('propose.email')}</label>
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
            {t(`propose.${errors.email}`)}
          </p>
        ) : (
          <p id={`${id}-email-hint`} className="muted small propose-hint">
            {t('propose.emailHint')}
          </p>
        )}
      </div>
      <MessageField id={`${id}-note`} label={t('propose.note')} rows={3} max={PROPOSAL_NOTE_MAX} value={note} placeholder={t('propose.notePlaceholder')} onChange={setNote} />
      <p className="propose-notice">
        {t('propose.notice')}
      </p>
      {failure && (
        <Alert kind="error">
          <p>{failure}</p>
        </Alert>
      )}
      <div className="dialog-footer">
        <CloseButton onClose={onClose} className="btn btn-secondary">
          {t('propose.cancel')}
        </CloseButton>
        <button type="submit" className="btn btn-primary" disabled={sending}>
          {sending ? t('propose.sending') : t('propose.send')}
        </button>
      </div>
    </form>
  );
}
