/**
 * Settings → Profile → "Date and time format" (issue 22 item 3): how dates and times read on the
 * owner's own screens — "Format" (Automatic (browser) or a common locale, each named in its own
 * language through Intl.DisplayNames), "Clock" (Automatic / 12-hour / 24-hour) and "First day of
 * week" (Automatic = Monday / Monday / Sunday / Saturday) — with a live example line as it will
 * read, saved on the account (PUT /api/me/profile `{ format_locale, hour12, week_start }`) so every
 * device follows it. The owner's texts stay English; time entry fields stay 24-hour.
 */
import { useEffect, useMemo, useState } from 'react';
import { api, ApiError } from '@avail/shared/api/api-client.ts';
import { useSession } from '../../data/session.tsx';
import { browserLocale, createOwnerFormats, type OwnerFormatChoice } from '../../data/use-owner-formats.ts';

/** The locales offered by "Format" (BCP 47), in this order. */
const FORMAT_LOCALES = ['en-US', 'en-GB', 'de', 'fr', 'es', 'nl', 'pt-BR', 'ja'] as const;

/** A locale's name in its own language, first letter capitalised ('fr' → 'Français', 'en-GB' → 'English (UK)'); the tag itself when Intl cannot name it. */
function localeOwnName(tag: string): string {
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language', languageDisplay: 'standard', style: 'short' }).of(tag) ?? tag;
    return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
  } catch {
    return tag;
  }
}

/** The example instant of the live line: Monday 30 November 2026, 09:00 (read in UTC). */
const EXAMPLE_MS = Date.UTC(2026, 10, 30, 9, 0);
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The select values: '' = automatic. */
interface Draft {
  locale: string;
  clock: '' | '12' | '24';
  weekStart: '' | '0' | '1' | '6';
}

function draftOf(c: OwnerFormatChoice | null | undefined): Draft {
  return {
    locale: c?.format_locale ?? '',
    clock: c?.hour12 == null ? '' : c.hour12 ? '12' : '24',
    weekStart: c?.week_start == null ? '' : (String(c.week_start) as Draft['weekStart']),
  };
}

function choiceOf(d: Draft): Required<OwnerFormatChoice> {
  return {
    format_locale: d.locale || null,
    hour12: d.clock === '' ? null : d.clock === '12',
    week_start: d.weekStart === '' ? null : Number(d.weekStart),
  };
}

/** The "Date and time format" fields of the Profile card. */
export function DateFormatFields() {
  const { user, refreshUser } = useSession();
  const stored = useMemo(() => draftOf(user), [user]);
  const [draft, setDraft] = useState<Draft>(stored);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');
  const [saved, setSaved] = useState(false);
  useEffect(() => setDraft(stored), [stored]);

  const browser = browserLocale();
  const preview = createOwnerFormats(choiceOf(draft), browser);
  const dirty = draft.locale !== stored.locale || draft.clock !== stored.clock || draft.weekStart !== stored.weekStart;
  // A stored locale outside the list (set through the API) stays selectable.
  const locales: string[] = [...FORMAT_LOCALES];
  if (draft.locale && !locales.includes(draft.locale)) locales.push(draft.locale);

  const change = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setSaved(false);
    setError('');
  };

  async function save() {
    setSaving(true);
    setError('');
    try {
      await api.updateFormatPrefs(choiceOf(draft));
      await refreshUser().catch(() => undefined);
      setSaved(true);
    } catch (e) {
      const fields = e instanceof ApiError ? e.fieldErrors : undefined;
      setError(fields?.format_locale ?? fields?.hour12 ?? fields?.week_start ?? (e instanceof ApiError ? e.message : 'Failed to save the format. Please try again.'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <fieldset className="field date-format" aria-describedby="date-format-help">
      <legend className="field-label">Date and time format</legend>
      <div className="date-format-fields">
        <label>
          <span>Format</span>
          <select id="profile-format-locale" value={draft.locale} onChange={(e) => change({ locale: e.target.value })} disabled={!user}>
            <option value="">Automatic (browser{browser ? `: ${localeOwnName(browser)}` : ''})</option>
            {locales.map((tag) => (
              <option key={tag} value={tag} lang={tag}>
                {localeOwnName(tag)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Clock</span>
          <select id="profile-clock" value={draft.clock} onChange={(e) => change({ clock: e.target.value as Draft['clock'] })} disabled={!user}>
            <option value="">Automatic</option>
            <option value="12">12-hour</option>
            <option value="24">24-hour</option>
          </select>
        </label>
        <label>
          <span>First day of week</span>
          <select id="profile-week-start" value={draft.weekStart} onChange={(e) => change({ weekStart: e.target.value as Draft['weekStart'] })} disabled={!user}>
            <option value="">Automatic</option>
            <option value="1">Monday</option>
            <option value="0">Sunday</option>
            <option value="6">Saturday</option>
          </select>
        </label>
        <button type="button" className="btn btn-primary" disabled={!user || saving || !dirty} onClick={() => void save()}>
          {saving ? 'Saving...' : 'Save format'}
        </button>
      </div>
      <p className="date-format-example" data-testid="date-format-example" lang={preview.locale}>
        {preview.dateTime(EXAMPLE_MS, 'UTC')}
      </p>
      <p id="date-format-help" className="muted small">
        How dates and times read on your screens (texts stay in English). Weeks start on {WEEKDAY_NAMES[preview.weekStart]}
        {draft.weekStart === '' ? ' (automatic)' : ''}. Times you type stay 24-hour.
      </p>
      <p className="field-error" role="alert">
        {error}
      </p>
      <p className="muted small" role="status">
        {saved ? 'Date and time format saved' : ''}
      </p>
    </fieldset>
  );
}
