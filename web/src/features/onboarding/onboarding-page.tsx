/**
 * Onboarding, five steps (spec §2 Onboarding, §4 Onboarding, §5 Username/Timezone, §8 messages):
 * Welcome → Timezone → Set Schedule → Username → Complete (onboarding-steps.tsx, schedule-step.tsx,
 * username-step.tsx). The page holds what outlasts a step: the zone, the slots, the username.
 */
import '../../styles/app.css';
import './onboarding.css';
import { useEffect, useRef, useState } from 'react';
import { api } from '@avail/shared/api/api-client.ts';
import { DEFAULT_TIMEZONE, TIMEZONE_GROUPS } from '@avail/shared';
import { useSession } from '../../data/session.tsx';
import { Logo } from '../../components/ui/logo.tsx';
import type { Slot, SlotError } from '../../components/slot-editor.tsx';
import { publicLinkOf } from '../../lib/public-link.ts';
import { CompleteStep, TimezoneStep, WelcomeStep } from './onboarding-steps.tsx';
import { newSlot, ScheduleStep } from './schedule-step.tsx';
import { UsernameStep } from './username-step.tsx';

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

export default function OnboardingPage() {
  const { user, logout } = useSession();
  const [step, setStep] = useState(1);
  const [timezone, setTimezone] = useState(() => defaultZone(user?.timezone));
  const [slots, setSlots] = useState<Slot[]>(() => [newSlot()]);
  const [username, setUsername] = useState(user?.username ?? '');
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
  }, [step]);

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

        {step === 1 && <WelcomeStep headingRef={headingRef} name={user?.name ?? ''} onNext={() => setStep(2)} />}
        {step === 2 && <TimezoneStep headingRef={headingRef} timezone={timezone} onChange={setTimezone} onBack={() => setStep(1)} onNext={() => setStep(3)} />}
        {step === 3 && (
          <ScheduleStep
            headingRef={headingRef}
            timezone={timezone}
            slots={slots}
            setSlots={setSlots}
            slotErrors={slotErrors}
            setSlotErrors={setSlotErrors}
            onBack={() => setStep(2)}
            onDone={() => setStep(4)}
          />
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

        {step === 5 && <CompleteStep headingRef={headingRef} link={publicLinkOf(user, username)} />}
      </main>
    </div>
  );
}
