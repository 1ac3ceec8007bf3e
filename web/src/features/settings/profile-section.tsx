/** Settings → Profile: view and save the timezone (spec §2, §8 Profile messages). */
import { useEffect, useState } from 'react';
import { api, ApiError } from '@avail/shared/api/api-client.ts';
import { DEFAULT_TIMEZONE } from '@avail/shared/constants.ts';
import { useSession } from '../../data/session.tsx';
import { TimezoneOptions } from '../../components/timezone-options.tsx';
import { useAlert } from '../../components/ui/alert.tsx';

export function ProfileSection() {
  const { refreshUser } = useSession();
  const [timezone, setTimezone] = useState('');
  const [saved, setSaved] = useState('');
  const [saving, setSaving] = useState(false);
  const alert = useAlert();

  useEffect(() => {
    api
      .me(true)
      .then(({ user }) => {
        const tz = user.timezone || DEFAULT_TIMEZONE;
        setTimezone(tz);
        setSaved(tz);
      })
      .catch(() => alert.show('error', 'Failed to load profile data'));
  }, [alert.show]);

  async function save() {
    setSaving(true);
    try {
      await api.updateTimezone(timezone);
      setSaved(timezone);
      alert.show('success', `Timezone updated to ${timezone}!`);
      void refreshUser().catch(() => undefined);
    } catch (e) {
      alert.show('error', `Failed to save: ${e instanceof ApiError ? e.message : (e as Error).message}`);
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="card" aria-labelledby="profile-title" id="profile">
      <h2 id="profile-title" className="card-title">
        Profile
      </h2>
      {alert.node}
      <div className="field">
        <label htmlFor="profile-timezone">Timezone</label>
        <div className="inline-form">
          <select id="profile-timezone" value={timezone} onChange={(e) => setTimezone(e.target.value)} disabled={!timezone}>
            <TimezoneOptions current={timezone} />
          </select>
          <button type="button" className="btn btn-primary" disabled={saving || !timezone || timezone === saved} onClick={() => void save()}>
            {saving ? 'Saving...' : 'Save'}
          </button>
        </div>
        <p className="muted small">Your weekly schedule and calendar are read in this timezone.</p>
      </div>
    </section>
  );
}
