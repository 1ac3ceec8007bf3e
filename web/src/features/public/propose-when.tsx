/**
 * When a visitor's proposal is (issue 4): the start — quarter hours inside the chosen free window —
 * and a length that fits before the window ends, then a summary of the range in the page's zone.
 * The state is {@link useProposeWhen}'s; {@link ProposeWhen} shows the two selects and the summary.
 */
import { useEffect, useMemo, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultDuration, fittingDurations } from '../../lib/time.ts';
import { useFormats } from './public-i18n.tsx';
import { richText } from './rich-text.tsx';
import type { ProposeTarget } from './propose-validation.ts';

/** The chosen start (UTC ms) and length (minutes), and the lengths that fit after the start. */
interface ProposeWhenState {
  start: number | undefined;
  duration: number | undefined;
  setStart(start: number): void;
  setDuration(minutes: number): void;
  durations: number[];
}

/**
 * The proposal's start and length: first the last start (of `starts`, UTC ms) at or before the
 * instant the visitor pointed at (`target.atMs`, else the window's start), with the default length
 * that fits; the length is made valid again when the start moves later.
 */
export function useProposeWhen(starts: number[], target: ProposeTarget): ProposeWhenState {
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

  // Keep the length valid when the start moves later.
  useEffect(() => {
    if (start === undefined) return;
    const fits = fittingDurations(start, target.endMs);
    if (duration === undefined || !fits.includes(duration)) setDuration(defaultDuration(fits));
  }, [start, duration, target.endMs]);

  return { start, duration, setStart, setDuration, durations };
}

/**
 * The start and length selects (ids `${id}-start`, `${id}-duration`; `startRef` is the start
 * select, focused when the dialog opens) and the summary of the range in `tz`.
 */
export function ProposeWhen({ id, tz, starts, startRef, when }: { id: string; tz: string; starts: number[]; startRef: Ref<HTMLSelectElement>; when: ProposeWhenState }) {
  const { t } = useTranslation();
  const f = useFormats();
  const { start, duration, setStart, setDuration, durations } = when;
  const zoneLabel = tz.replace(/_/g, ' ');
  return (
    <>
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
    </>
  );
}
