/**
 * Settings → "Confirmed meetings" (issue 24): which calendar a confirmed proposal is written to
 * (GET/PUT /me/proposal-settings). The first option is the default — the server's `effective`
 * calendar when the owner has made no choice; without a writable calendar the meeting's .ics is
 * e-mailed to the owner instead. Saves on change; a 422 shows `errors.target`.
 */
import { useEffect, useState } from 'react';
import { api, ApiError, serverMessage, type CalendarTarget, type ProposalSettings, type WritableCalendar } from '@avail/shared/api/api-client.ts';
import { Alert, useAutoDismiss } from '../../components/ui/alert.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';

/** The `<option>` value of a calendar ('' = the default). */
export function targetValue(t: CalendarTarget | null | undefined): string {
  return t ? JSON.stringify([t.connection_id, t.calendar_id]) : '';
}
/** The calendar of an option value, or null for the default. */
export function targetOf(value: string): CalendarTarget | null {
  if (!value) return null;
  try {
    const v: unknown = JSON.parse(value);
    if (Array.isArray(v) && typeof v[0] === 'string' && typeof v[1] === 'string') return { connection_id: v[0], calendar_id: v[1] };
  } catch {
    /* not one of ours */
  }
  return null;
}

/** 'Work (Google · ana@example.com)': a calendar as the select lists it. */
export function calendarLabel(c: WritableCalendar): string {
  return c.connection_name && c.connection_name !== c.calendar_name ? `${c.calendar_name} (${c.connection_name})` : c.calendar_name;
}

/** The default option's text: where meetings go while the owner has not chosen. */
export function defaultOptionLabel(settings: Pick<ProposalSettings, 'effective' | 'calendars'>, chosen: boolean): string {
  if (settings.calendars.length === 0 || (!chosen && !settings.effective)) return 'Default — e-mail me an .ics file';
  if (!chosen && settings.effective) return `Default — ${calendarLabel(settings.effective)}`;
  return 'Default — the first calendar of your oldest connection';
}

export function ConfirmedMeetingsSection() {
  const [settings, setSettings] = useState<ProposalSettings | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [saving, setSaving] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  useAutoDismiss(saved, 'success', () => setSaved(false));

  useEffect(() => {
    let live = true;
    api.proposalSettings().then(
      (s) => live && setSettings(s),
      () => live && setLoadError(true),
    );
    return () => {
      live = false;
    };
  }, []);

  async function choose(value: string) {
    if (!settings) return;
    const target = targetOf(value);
    const before = settings;
    setSettings({ ...settings, target });
    setSaving(true);
    setFieldError(null);
    setSaveError(null);
    setSaved(false);
    try {
      setSettings(await api.setProposalSettings(target));
      setSaved(true);
    } catch (err) {
      setSettings(before);
      const field = err instanceof ApiError ? err.fieldErrors?.target : undefined;
      if (field) setFieldError(field);
      else setSaveError(serverMessage(err) ?? (err instanceof ApiError ? 'Failed to save. Please try again.' : 'Unable to connect. Please check your internet connection and try again.'));
    } finally {
      setSaving(false);
    }
  }

  const none = settings !== null && settings.calendars.length === 0;
  // A chosen calendar that is no longer writable still shows, so the select never lies.
  const chosenMissing = settings?.target && !settings.calendars.some((c) => targetValue(c) === targetValue(settings.target));

  return (
    <section className="card" id="confirmed-meetings" aria-labelledby="confirmed-meetings-title">
      <div className="card-header">
        <h2 id="confirmed-meetings-title" className="card-title">
          Confirmed meetings
        </h2>
      </div>
      <p className="muted">When you confirm a proposed time, the visitor gets an invitation and the meeting is added to the calendar you choose here.</p>
      {loadError && <Alert kind="error">Could not load this setting. Please try again later.</Alert>}
      {!settings && !loadError && <Spinner size={20} label="Loading confirmed meetings setting" />}
      {settings && (
        <div className="field">
          <label htmlFor="proposal-target">Add confirmed meetings to</label>
          <select
            id="proposal-target"
            value={targetValue(settings.target)}
            disabled={saving || none}
            onChange={(e) => void choose(e.target.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'proposal-target-error' : 'proposal-target-help'}
          >
            <option value="">{defaultOptionLabel(settings, Boolean(settings.target))}</option>
            {settings.calendars.map((c) => (
              <option key={targetValue(c)} value={targetValue(c)}>
                {calendarLabel(c)}
              </option>
            ))}
            {chosenMissing && <option value={targetValue(settings.target)}>A calendar that can no longer be written</option>}
          </select>
          {fieldError ? (
            <p id="proposal-target-error" className="field-error" role="alert">
              {fieldError}
            </p>
          ) : (
            <p id="proposal-target-help" className="muted small">
              {none
                ? 'No connected calendar can be written to. Confirmed meetings are e-mailed to you as an .ics file.'
                : settings.effective
                  ? `Next confirmed meeting goes to ${calendarLabel(settings.effective)}.`
                  : 'Confirmed meetings are e-mailed to you as an .ics file.'}
            </p>
          )}
        </div>
      )}
      {saved && <Alert kind="success">Saved.</Alert>}
      {saveError && <Alert kind="error">{saveError}</Alert>}
    </section>
  );
}
