/**
 * Onboarding, five steps (spec §2 Onboarding, §4 Onboarding, §5 Username/Timezone, §8 messages):
 * Welcome → Timezone → Set Schedule → Username → Complete.
 */
import '../../styles/app.css';
import './onboarding.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError, serverMessage, type AvailabilityRule } from '@avail/shared/api/api-client.ts';
import {
  DEFAULT_RULE, DEFAULT_TIMEZONE, ONBOARDING_RELOAD_DELAY_MS, TIMEZONE_GROUPS,
  timezoneSchema, usernameSchema,
} from '@avail/shared';
import { useSession } from '../../data/session.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Logo } from '../../components/ui/logo.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { SlotEditor, type Slot, type SlotError } from '../../components/slot-editor.tsx';
import { checkSlots, focusFirstSlotError, issuesOfFieldErrors, slotErrorsFrom } from '../../components/slot-errors.ts';
import { nextSlotDefault } from '@avail/shared/domain/weekly-hours.ts';
import { useUsernameCheck } from '../../components/use-username-check.ts';
import { displayLink, publicLinkBase, publicLinkOf } from '../../lib/public-link.ts';

const STEPS = ['Welcome', 'Timezone', 'Set Schedule', 'Username', 'Complete'] as const;
const ALL_ZONES = TIMEZONE_GROUPS.flatMap((g) => g.zones);

/** The browser's zone when it is selectable, else the account's, else Europe/Brussels. */
function defaultZone(current?: string | null): string {
  try {
    const z = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (ALL_ZONES.includes(z)) return z;
  } catch {
    /* fall through */
  }
  if (current && ALL_ZONES.includes(current)) return current;
  return DEFAULT_TIMEZONE;
}

let slotSeq = 0;
export const newSlot = (r: Omit<AvailabilityRule, 'id'> = DEFAULT_RULE): Slot => ({ key: ++slotSeq, ...r });

function saveErrorMessage(e: unknown, fallback: string): string {
  if (e instanceof ApiError) {
    const fields = e.fieldErrors;
    if (fields && Object.keys(fields).length) return `Validation error: ${Object.values(fields).join(', ')}`;
  }
  return serverMessage(e) ?? fallback;
}

export default function OnboardingPage() {
  const { user, logout } = useSession();
  const [step, setStep] = useState(1);
  const [timezone, setTimezone] = useState(() => defaultZone(user?.timezone));
  const [slots, setSlots] = useState<Slot[]>(() => [newSlot()]);
  const [username, setUsername] = useState(user?.username ?? '');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');
  const [slotErrors, setSlotErrors] = useState<Record<number, SlotError>>({});
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Existing rules (a returning user) replace the default slot.
  useEffect(() => {
    api
      .availabilityRules()
      .then(({ rules }) => {
        if (rules?.length) setSlots(rules.map((r) => newSlot({ weekday: r.weekday, start_time_local: r.start_time_local, end_time_local: r.end_time_local })));
      })
      .catch(() => undefined);
  }, []);

  useEffect(() => {
    headingRef.current?.focus();
    setError('');
  }, [step]);

  async function saveSchedule() {
    setError('');
    if (!timezoneSchema.safeParse(timezone).success) {
      setError('Please select a timezone');
      return;
    }
    // The shared list schema: field errors beside their slot (issue 23), a list message on top.
    const problem = checkSlots(slots);
    if (problem?.slots) {
      setSlotErrors(problem.slots);
      focusFirstSlotError(slots, problem.slots);
      return;
    }
    if (problem) {
      setError(problem.list ?? '');
      return;
    }
    setSaving(true);
    try {
      await api.updateTimezone(timezone);
      await api.replaceAvailabilityRules(slots.map(({ weekday, start_time_local, end_time_local }) => ({ weekday, start_time_local, end_time_local })));
      setStep(4);
    } catch (e) {
      const bySlot = e instanceof ApiError ? slotErrorsFrom(slots, issuesOfFieldErrors(e.fieldErrors)) : {};
      if (Object.keys(bySlot).length) setSlotErrors(bySlot);
      else setError(saveErrorMessage(e, 'Failed to save your availability settings. Please try again.'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="onboarding-page">
      <header className="onboarding-top">
        <Logo />
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void logout()}>
          Log out
        </button>
      </header>
      <main className="onboarding-card card">
        <ol className="stepper" aria-label="Onboarding progress">
          {STEPS.map((name, i) => (
            <li key={name} className={i + 1 === step ? 'current' : i + 1 < step ? 'done' : ''} aria-current={i + 1 === step ? 'step' : undefined}>
              <span className="stepper-dot">{i + 1 < step ? '✓' : i + 1}</span>
              <span className="stepper-label">{name}</span>
            </li>
          ))}
        </ol>
        {/* Visible at phone width, where the stepper shows bare numbers (issue 23); read out on every width. */}
        <p className="stepper-current" aria-live="polite">
          Step {step} of 5 · {STEPS[step - 1]}
        </p>

        {step === 1 && (
          <section className="step step-welcome">
            <h1 ref={headingRef} tabIndex={-1}>
              Welcome to Avail{user?.name ? `, ${user.name.split(' ')[0]}` : ''}!
            </h1>
            <p className="lead">Let&apos;s set up your availability link in three quick steps.</p>
            <ul className="checklist">
              <li>Choose your timezone</li>
              <li>Set your weekly schedule</li>
              <li>Pick your public username</li>
            </ul>
            <p className="muted">Visitors see only your free windows — never your event titles or details.</p>
            <div className="step-actions end">
              <button type="button" className="btn btn-primary" onClick={() => setStep(2)}>
                Get Started
              </button>
            </div>
          </section>
        )}

        {step === 2 && (
          <section className="step">
            <h1 ref={headingRef} tabIndex={-1}>
              Choose your timezone
            </h1>
            <p className="muted">Your schedule and calendar are read in this timezone.</p>
            {error && <Alert kind="error">{error}</Alert>}
            <TimezonePicker value={timezone} onChange={setTimezone} />
            {!timezone && <p className="field-error">Please select a timezone</p>}
            <div className="step-actions">
              <button type="button" className="btn btn-secondary" onClick={() => setStep(1)}>
                Back
              </button>
              <button type="button" className="btn btn-primary" disabled={!timezone} onClick={() => (timezone ? setStep(3) : setError('Please select a timezone'))}>
                Continue
              </button>
            </div>
          </section>
        )}

        {step === 3 && (
          <section className="step">
            <h1 ref={headingRef} tabIndex={-1}>
              Set your weekly schedule
            </h1>
            <p className="muted">Add the times you are usually available. Busy events from your calendars are removed automatically.</p>
            {error && <Alert kind="error">{error}</Alert>}
            <SlotEditor
              slots={slots}
              errors={slotErrors}
              onChange={(s) => {
                setSlots(s);
                setSlotErrors({});
              }}
              makeSlot={() => newSlot(nextSlotDefault(slots))}
            />
            <div className="step-actions">
              <button type="button" className="btn btn-secondary" onClick={() => setStep(2)} disabled={saving}>
                Back
              </button>
              <button type="button" className="btn btn-primary" onClick={() => void saveSchedule()} disabled={saving}>
                {saving ? 'Saving...' : 'Continue'}
              </button>
            </div>
          </section>
        )}

        {step === 4 && (
          <UsernameStep
            headingRef={headingRef}
            initial={user?.username ?? ''}
            value={username}
            onChange={setUsername}
            onBack={() => setStep(3)}
            onDone={() => setStep(5)}
          />
        )}

        {step === 5 && (
          <section className="step step-welcome">
            <div className="success-badge" aria-hidden="true">
              ✓
            </div>
            <h1 ref={headingRef} tabIndex={-1}>
              You&apos;re All Set
            </h1>
            <p className="lead">Your availability link is ready to share:</p>
            <p className="public-link-preview">
              {publicLinkOf(user, username)}
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
        )}
      </main>
    </div>
  );
}

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

function UsernameStep({
  headingRef, initial, value, onChange, onBack, onDone,
}: {
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  initial: string;
  value: string;
  onChange: (v: string) => void;
  onBack: () => void;
  onDone: () => void;
}) {
  const { user } = useSession();
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState('');
  // An untouched empty field says nothing; once edited, an empty field is 'Username is required'.
  const [touched, setTouched] = useState(false);
  const unchanged = initial !== '' && value.trim() === initial;

  const check = useUsernameCheck(value, initial, touched);
  // A failed Continue shows the schema's message even when the field was never edited.
  const [forced, setForced] = useState('');
  const status = forced ? 'invalid' : check.status === 'current' ? 'available' : check.status;
  const message = forced || check.message;
  useEffect(() => {
    setSaveError('');
    setForced('');
  }, [value]);

  async function onContinue() {
    const parsed = usernameSchema.safeParse(value);
    if (!parsed.success) {
      setForced(parsed.error.issues[0].message);
      return;
    }
    if (unchanged) {
      onDone();
      return;
    }
    setSaving(true);
    setSaveError('');
    try {
      await api.updateUsername(parsed.data);
      onDone();
    } catch (e) {
      if (e instanceof ApiError && e.status === 403) setSaveError(serverMessage(e) ?? 'Username changes are not currently allowed.');
      else setSaveError(serverMessage(e) ?? 'Failed to save username. Please try again.');
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="step">
      <h1 ref={headingRef} tabIndex={-1}>
        Choose your username
      </h1>
      <p className="muted">It becomes your public link. You can change it every 2 weeks.</p>
      {saveError && <Alert kind="error">{saveError}</Alert>}
      <div className="field">
        <label htmlFor="onboarding-username">Username</label>
        <div className="input-prefix">
          <span aria-hidden="true">{displayLink(publicLinkBase(user))}/</span>
          <input
            id="onboarding-username"
            name="username"
            autoComplete="off"
            spellCheck={false}
            value={value}
            placeholder="your-name"
            aria-describedby="username-status"
            aria-invalid={status === 'invalid' || status === 'taken'}
            onChange={(e) => {
              setTouched(true);
              onChange(e.target.value.trim());
            }}
          />
        </div>
        <p id="username-status" className={`username-status status-${status}`} aria-live="polite">
          {status === 'checking' && <Spinner size={12} />} {message}
        </p>
      </div>
      <div className="step-actions">
        <button type="button" className="btn btn-secondary" onClick={onBack} disabled={saving}>
          Back
        </button>
        <button type="button" className="btn btn-primary" disabled={saving || status !== 'available'} onClick={() => void onContinue()}>
          {saving ? 'Saving...' : 'Continue'}
        </button>
      </div>
    </section>
  );
}
