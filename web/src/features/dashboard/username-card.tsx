/**
 * Links → Username (spec §2 Links): the username of the public link, changeable once every 14
 * days (the profile's `can_change_username`, `days_until_change`). The field checks availability
 * as the owner types (useUsernameCheck); Save calls PUT /me/username and reloads the profile, the
 * links and the session's user. The outcome shows in the Links screen's alert area (`alert`).
 */
import { useEffect, useState } from 'react';
import { api, serverMessage, type Profile, type User } from '@avail/shared/api/api-client.ts';
import type { useAlert } from '../../components/ui/alert.tsx';
import { useUsernameCheck } from '../../components/use-username-check.ts';
import { displayLink, publicLinkBase } from '../../lib/public-link.ts';

/**
 * `profile`: GET /me/profile's (undefined while it loads: the change counts as allowed);
 * `current`: the username now ('' none); `onSaved` reloads what shows the username.
 */
export function UsernameCard({ profile: p, current, user, alert, onSaved }: { profile: Profile | undefined; current: string; user: User | null; alert: ReturnType<typeof useAlert>; onSaved: () => Promise<unknown> }) {
  const [value, setValue] = useState('');
  // Clearing the field says 'Username is required'; an untouched empty field says nothing.
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const canChange = p ? p.can_change_username : true;
  const check = useUsernameCheck(value, current, touched);
  const available = check.status === 'available';

  useEffect(() => setValue(current), [current]);

  async function save() {
    if (!canChange) {
      alert.show('error', 'Username changes are not currently allowed.');
      return;
    }
    setSaving(true);
    try {
      await api.updateUsername(value);
      alert.show('success', 'Username updated successfully!');
      await onSaved();
    } catch (e) {
      alert.show('error', serverMessage(e) ?? 'Failed to save username. Please try again.');
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="card">
      <h2 id="username-title" className="card-title">
        Username
      </h2>
      <p className="muted small" data-testid="username-rule">
        {canChange
          ? 'You can change your username once every 14 days.'
          : `You can change your username again in ${p?.days_until_change ?? 0} ${p?.days_until_change === 1 ? 'day' : 'days'}.`}
      </p>
      <div className="field">
        <label htmlFor="links-username">Username</label>
        <div className="input-prefix">
          <span aria-hidden="true">{displayLink(publicLinkBase(user))}/</span>
          <input
            id="links-username"
            value={value}
            disabled={!canChange}
            onChange={(e) => {
              setTouched(true);
              setValue(e.target.value.trim());
            }}
            aria-describedby="links-username-status"
          />
        </div>
        <p id="links-username-status" className="username-status" aria-live="polite">
          {check.status === 'current' ? '' : check.message}
        </p>
      </div>
      <button type="button" className="btn btn-primary" disabled={!available || saving || !canChange} onClick={() => void save()}>
        {saving ? 'Saving...' : 'Save username'}
      </button>
    </section>
  );
}
