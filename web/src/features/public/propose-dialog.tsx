/**
 * 'Propose a time' dialog of the public page (issue 4): the visitor picks a start and a length inside
 * one free window and leaves name, e-mail and a note; the server relays it to the owner by e-mail.
 * Nothing is booked. A native modal `<dialog>` (same classes as components/ui/dialog.tsx; issue 11:
 * no radix on the visitor's page, which runs on Preact's compatibility layer): the browser keeps
 * focus inside and the page behind inert; focus goes to the first field on open and back to the
 * chosen slot on close; Escape, the ✕, Cancel/Close and a click on the backdrop close it.
 */
import { useEffect, useId, useMemo, useRef, useState, type MouseEvent, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { quarterHourStarts } from '../../lib/time.ts';
import { useFormats } from './public-i18n.tsx';
import { richText } from './rich-text.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { CloseButton, ProposeForm } from './propose-form.tsx';
import type { ProposeTarget } from './propose-validation.ts';

export { validateProposal, type ProposeTarget } from './propose-validation.ts';

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
  const { t } = useTranslation();
  const f = useFormats();
  const id = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const startRef = useRef<HTMLSelectElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const starts = useMemo(() => quarterHourStarts(target.startMs, target.endMs, Date.now()), [target]);
  const [success, setSuccess] = useState<string | null>(null);

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

  const windowLabel = f.instantRange(target.startMs, target.endMs, tz);
  const zoneLabel = tz.replace(/_/g, ' ');

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
          {t('propose.title')}
        </h2>
        <CloseButton onClose={onClose} className="icon-button" label={t('propose.close')}>
          ✕
        </CloseButton>
      </div>
      <p id={`${id}-description`} className="dialog-description">
        {richText(t('propose.window', { range: windowLabel, zone: zoneLabel }), { strong: (c) => <strong>{c}</strong> })}
      </p>
      {success ? (
        <div className="propose-success">
          <Alert kind="success">
            <p>{success}</p>
          </Alert>
          <p className="muted small">{t('propose.waiting')}</p>
          <div className="dialog-footer">
            <CloseButton buttonRef={closeRef} onClose={onClose} className="btn btn-primary">
              {t('propose.done')}
            </CloseButton>
          </div>
        </div>
      ) : starts.length === 0 ? (
        <div>
          <p role="alert" className="field-error">
            {t('propose.passed')}
          </p>
          <div className="dialog-footer">
            <CloseButton onClose={onClose} className="btn btn-secondary">
              {t('propose.done')}
            </CloseButton>
          </div>
        </div>
      ) : (
        <ProposeForm
          slug={slug}
          linkKey={linkKey}
          ownerName={ownerName}
          tz={tz}
          target={target}
          starts={starts}
          startRef={startRef}
          onClose={onClose}
          onStale={onStale}
          onSent={setSuccess}
        />
      )}
    </dialog>
  );
}
