/**
 * Settings → Profile: the timezone (spec §2, §8 Profile messages), and the host shown on the public
 * page (issue 22 item 4): a picture — upload (PNG, JPEG or WebP ≤ 2 MB; the server stores a 256×256
 * WebP) or remove, previewed with the initials fallback visitors see — and a one-line introduction
 * (≤ 160 characters, with a counter); and the date and time format of the owner's screens
 * (date-format-fields.tsx, issue 22 item 3). Errors show on their field. The picture and the
 * introduction are their own fields (profile-picture-field.tsx, profile-intro-field.tsx).
 */
import { useEffect, useState } from 'react';
import { api, ApiError } from '@avail/shared/api/api-client.ts';
import { DEFAULT_TIMEZONE } from '@avail/shared/constants.ts';
import { useSession } from '../../data/session.tsx';
import { TimezoneOptions } from '../../components/timezone-options.tsx';
import { useAlert } from '../../components/ui/alert.tsx';
import { DateFormatFields } from './date-format-fields.tsx';
import { IntroField } from './profile-intro-field.tsx';
import { PictureField } from './profile-picture-field.tsx';
import './profile-section.css';

export function ProfileSection() {
  const { user, refreshUser } = useSession();
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

  const name = user?.name ?? '';
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

      <PictureField name={name} />

      <IntroField />

      <DateFormatFields />
    </section>
  );
}
