/**
 * Onboarding steps 1, 2 and 5 (spec §2 Onboarding, §4 Onboarding, §5 Timezone): Welcome, the
 * timezone picker with the chosen zone's current time, and Complete with the public link. Each
 * step's heading takes `headingRef`: the page focuses it when the step shows.
 */
import { useEffect, useMemo, useState, type RefObject } from 'react';
import { ONBOARDING_RELOAD_DELAY_MS, TIMEZONE_GROUPS } from '@avail/shared';
import { Alert } from '../../components/ui/alert.tsx';

type HeadingRef = RefObject<HTMLHeadingElement | null>;

/** Step 1: what is set up next; `name`: the owner's full name ('' none). */
export function WelcomeStep({ headingRef, name, onNext }: { headingRef: HeadingRef; name: string; onNext: () => void }) {
  return (
    <section className="step step-welcome">
      <h1 ref={headingRef} tabIndex={-1}>
        Welcome to Avail{name ? `, ${name.split(' ')[0]}` : ''}!
      </h1>
      <p className="lead">Let&apos;s set up your availability link in three quick steps.</p>
      <ul className="checklist">
        <li>Choose your timezone</li>
        <li>Set your weekly schedule</li>
        <li>Pick your public username</li>
      </ul>
      <p className="muted">Visitors see only your free windows — never your event titles or details.</p>
      <div className="step-actions end">
        <button type="button" className="btn btn-primary" onClick={onNext}>
          Get Started
        </button>
      </div>
    </section>
  );
}

/** Step 2: the timezone (IANA, '' none chosen) the schedule is read in. */
export function TimezoneStep({ headingRef, timezone, onChange, onBack, onNext }: { headingRef: HeadingRef; timezone: string; onChange: (tz: string) => void; onBack: () => void; onNext: () => void }) {
  const [error, setError] = useState('');
  return (
    <section className="step">
      <h1 ref={headingRef} tabIndex={-1}>
        Choose your timezone
      </h1>
      <p className="muted">Your schedule and calendar are read in this timezone.</p>
      {error && <Alert kind="error">{error}</Alert>}
      <TimezonePicker value={timezone} onChange={onChange} />
      {!timezone && <p className="field-error">Please select a timezone</p>}
      <div className="step-actions">
        <button type="button" className="btn btn-secondary" onClick={onBack}>
          Back
        </button>
        <button type="button" className="btn btn-primary" disabled={!timezone} onClick={() => (timezone ? onNext() : setError('Please select a timezone'))}>
          Continue
        </button>
      </div>
    </section>
  );
}

/** Step 5: the public link (`link`) and 'Go to Dashboard' (a full reload after ONBOARDING_RELOAD_DELAY_MS). */
export function CompleteStep({ headingRef, link }: { headingRef: HeadingRef; link: string }) {
  return (
    <section className="step step-welcome">
      <div className="success-badge" aria-hidden="true">
        ✓
      </div>
      <h1 ref={headingRef} tabIndex={-1}>
        You&apos;re All Set
      </h1>
      <p className="lead">Your availability link is ready to share:</p>
      <p className="public-link-preview">
        {link}
      </p>
      <p className="muted">Connect your calendars from Settings so busy times are hidden automatically.</p>
      <div className="step-actions end">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            setTimeout(() => window.location.assign('/app/dashboard'), ONBOARDING_RELOAD_DELAY_MS);
          }}
        >
          Go to Dashboard
        </button>
      </div>
    </section>
  );
}

/** The searchable list of selectable zones (TIMEZONE_GROUPS) as radio buttons, with the chosen zone's time (ticking each second). */
function TimezonePicker({ value, onChange }: { value: string; onChange: (tz: string) => void }) {
  const [query, setQuery] = useState('');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const groups = useMemo(() => {
    const q = query.trim().toLowerCase().replace(/\s+/g, '_');
    return TIMEZONE_GROUPS.map((g) => ({
      group: g.group,
      zones: g.zones.filter((z) => !q || z.toLowerCase().includes(q) || g.group.toLowerCase().includes(query.trim().toLowerCase())),
    })).filter((g) => g.zones.length);
  }, [query]);
  const currentTime = value
    ? new Intl.DateTimeFormat('en-US', { timeZone: value, weekday: 'long', hour: 'numeric', minute: '2-digit', second: '2-digit' }).format(now)
    : '';
  return (
    <div className="tz-picker">
      <div className="field">
        <label htmlFor="tz-search">Search timezones</label>
        <input id="tz-search" type="search" placeholder="e.g. Brussels, New York, Tokyo" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      <div className="tz-list" role="radiogroup" aria-label="Timezone">
        {groups.length === 0 && <p className="muted">No timezones match “{query}”.</p>}
        {groups.map((g) => (
          <fieldset key={g.group} className="tz-group">
            <legend>{g.group}</legend>
            {g.zones.map((z) => (
              <label key={z} className={`tz-option${z === value ? ' selected' : ''}`}>
                <input type="radio" name="timezone" value={z} checked={z === value} onChange={() => onChange(z)} />
                <span>{z.replace(/_/g, ' ')}</span>
              </label>
            ))}
          </fieldset>
        ))}
      </div>
      {value && (
        <p className="tz-current" aria-live="polite">
          Selected: <strong>{value.replace(/_/g, ' ')}</strong> — current time <strong data-testid="tz-current-time">{currentTime}</strong>
        </p>
      )}
    </div>
  );
}
