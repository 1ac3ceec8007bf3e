/**
 * A message to the other side of a proposal, with its character count beside the label (issue 4,
 * issue 24): the owner's decline or cancel message (dashboard dialog, one-click e-mail link) and the
 * visitor's note (public page). The count `${id}-count` describes the textarea; it is announced
 * politely as the text grows.
 *
 * Two ways to hold the limit: with `tooLongText` (the owner's screens) the owner may type past
 * `max`, and then the count turns red and the text shows as `${id}-error` (aria-invalid; the
 * caller refuses to send); without it (the visitor's note) the textarea stops at `max`.
 */

interface MessageFieldProps {
  /** The textarea's id; the count is `${id}-count`, the error `${id}-error`. */
  id: string;
  label: string;
  value: string;
  /** Gets the textarea's new value (cut to `max` when there is no `tooLongText`). */
  onChange(value: string): void;
  /** Longest message (characters): PROPOSAL_MESSAGE_MAX or PROPOSAL_NOTE_MAX. */
  max: number;
  rows: number;
  placeholder?: string;
  /** The error under the field while the text is over `max`; absent: the text cannot get longer than `max`. */
  tooLongText?: string;
}

/** A labelled textarea with its `n/max` count and, on the owner's screens, the too-long error. */
export function MessageField({ id, label, value, onChange, max, rows, placeholder, tooLongText }: MessageFieldProps) {
  const clip = tooLongText === undefined;
  const tooLong = !clip && value.length > max;
  return (
    <div className="field">
      <div className="field-label-row">
        <label htmlFor={id}>{label}</label>
        <span id={`${id}-count`} className={`small ${tooLong ? 'field-error' : 'muted'}`} aria-live="polite">
          {value.length}/{max}
        </span>
      </div>
      <textarea
        id={id}
        rows={rows}
        maxLength={clip ? max : undefined}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(clip ? e.target.value.slice(0, max) : e.target.value)}
        aria-invalid={tooLong || undefined}
        aria-describedby={tooLong ? `${id}-count ${id}-error` : `${id}-count`}
      />
      {tooLong && (
        <p id={`${id}-error`} className="field-error">
          {tooLongText}
        </p>
      )}
    </div>
  );
}
