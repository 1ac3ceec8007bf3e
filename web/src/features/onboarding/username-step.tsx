/**
 * Onboarding step 4 (spec §2 Onboarding, §5 Username, §8): the public username, checked as the
 * owner types (useUsernameCheck) and saved with PUT /me/username (kept as it is when unchanged).
 */
import { useEffect, useState, type RefObject } from 'react';
import { api, ApiError, serverMessage } from '@avail/shared/api/api-client.ts';
import { usernameSchema } from '@avail/shared';
import { useSession } from '../../data/session.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useUsernameCheck } from '../../components/use-username-check.ts';
import { displayLink, publicLinkBase } from '../../lib/public-link.ts';

/** `initial`: the account's username ('' none); `value`/`onChange`: the page's (shown again at step 5). */
export function UsernameStep({
  headingRef, initial, value, onChange, onBack, onDone,
}: {
  headingRef: RefObject<HTMLHeadingElement | null>;
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
