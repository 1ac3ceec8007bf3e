/**
 * The 'Propose a time' form (issue 4) inside the dialog (propose-dialog.tsx): start (quarter
 * hours inside the free window) and a length that fits, the visitor's name, e-mail and an optional
 * note; `POST /api/public/{username}/proposals` (spec §4). Client checks use the server's messages;
 * a 422 `not_free` answer calls `onStale` (the page refetches its windows).
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ApiError, serverMessage } from '@avail/shared/api/api-client.ts';
import { defaultDuration, fittingDurations } from '../../lib/time.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { useFormats } from './public-i18n.tsx';
import { richText } from './rich-text.tsx';
import { validateProposal, type Errors, type ProposeTarget } from './propose-validation.ts';

const NOTE_MAX = 1000;

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
  const f = useFormats();
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
      <div className="propose-when">
        <div className="field">
          <label htmlFor={`${id}-start`}>{t('propose.start')}</label>
          <select ref={startRef} id={`${id}-start`} value={start} onChange={(e) => setStart(Number(e.target.value))}>
            {starts.map((s) => (
              <option key={s} value={s}>
                {f.time(s, tz)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-duration`}>{t('propose.duration')}</label>
          <select id={`${id}-duration`} value={duration} onChange={(e) => setDuration(Number(e.target.value))}>
            {durations.map((m) => (
              <option key={m} value={m}>
                {m < 60 ? t('propose.minutes', { count: m }) : t('propose.hours', { count: m / 60 })}
              </option>
            ))}
          </select>
        </div>
      </div>
      {start !== undefined && duration !== undefined && (
        <p className="propose-summary" aria-live="polite">
          {richText(t('propose.summary', { range: f.instantRange(start, start + duration * 60_000, tz) }), { strong: (c) => <strong>{c}</strong> })}
          <span className="muted"> · {t('propose.timesIn', { zone: zoneLabel })}</span>
        </p>
      )}
      <div className="field">
        <label htmlFor={`${id}-name`}>{t('propose.name')}</label>
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
      <div className="field">
        <div className="field-label-row">
          <label htmlFor={`${id}-note`}>{t('propose.note')}</label>
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
          placeholder={t('propose.notePlaceholder')}
          onChange={(e) => setNote(e.target.value.slice(0, NOTE_MAX))}
        />
      </div>
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
