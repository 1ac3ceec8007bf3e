/**
 * Settings → Profile: the timezone (spec §2, §8 Profile messages), and the host shown on the public
 * page (issue 22 item 4): a picture — upload (PNG, JPEG or WebP ≤ 2 MB; the server stores a 256×256
 * WebP) or remove, previewed with the initials fallback visitors see — and a one-line introduction
 * (≤ 160 characters, with a counter); and the date and time format of the owner's screens
 * (date-format-fields.tsx, issue 22 item 3). Errors show on their field.
 */
import { useEffect, useRef, useState } from 'react';
import { api, ApiError } from '@avail/shared/api/api-client.ts';
import { DEFAULT_TIMEZONE } from '@avail/shared/constants.ts';
import { INTRO_MAX_LENGTH } from '@avail/shared/schemas/profile.schema.ts';
import { useSession } from '../../data/session.tsx';
import { hostInitials, hostTone } from '../../lib/host-initials.ts';
import { TimezoneOptions } from '../../components/timezone-options.tsx';
import { useAlert } from '../../components/ui/alert.tsx';
import { DateFormatFields } from './date-format-fields.tsx';
import './profile-section.css';

/** What the picture field accepts, before asking the server (which checks the bytes too). */
const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const PICTURE_MAX_BYTES = 2 * 1024 * 1024;
export const PICTURE_WRONG_TYPE = 'The picture must be a PNG, JPEG or WebP image';
export const PICTURE_TOO_LARGE = 'The picture must be at most 2 MB';

/** The server's message for `field` of a failed call (its field error, else its message). */
function fieldMessage(e: unknown, field: string): string {
  if (e instanceof ApiError) return e.fieldErrors?.[field] ?? e.message;
  return (e as Error).message || 'Something went wrong';
}

/** A Blob as a `data:` URL. */
function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the picture'));
    reader.readAsDataURL(blob);
  });
}

export function ProfileSection() {
  const { user, refreshUser } = useSession();
  const [timezone, setTimezone] = useState('');
  const [saved, setSaved] = useState('');
  const [saving, setSaving] = useState(false);
  const alert = useAlert();

  const [intro, setIntro] = useState('');
  const [savedIntro, setSavedIntro] = useState('');
  const [introLoaded, setIntroLoaded] = useState(false);
  const [introSaving, setIntroSaving] = useState(false);
  const [introError, setIntroError] = useState('');
  const [introSaved, setIntroSaved] = useState(false);

  const [pictureUrl, setPictureUrl] = useState<string | null>(null);
  const [pictureBusy, setPictureBusy] = useState(false);
  const [pictureError, setPictureError] = useState('');
  const [pictureNote, setPictureNote] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);

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

  useEffect(() => {
    api
      .profile()
      .then(({ profile }) => {
        setIntro(profile.intro ?? '');
        setSavedIntro(profile.intro ?? '');
        setIntroLoaded(true);
      })
      .catch(() => setIntroError('Failed to load profile data'));
    void loadPicture();
  }, []);

  // The preview is the owner's own copy as a data: URL (the public URL may need a personal link's key,
  // and the CSP — web and desktop — allows images from 'self' and data: only, not blob:).
  async function loadPicture() {
    try {
      const blob = await api.ownAvatar();
      setPictureUrl(blob ? await dataUrlOf(blob) : null);
    } catch {
      setPictureError('Failed to load your picture');
    }
  }

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

  async function upload(file: File) {
    setPictureError('');
    setPictureNote('');
    if (!PICTURE_TYPES.includes(file.type)) return setPictureError(PICTURE_WRONG_TYPE);
    if (file.size > PICTURE_MAX_BYTES) return setPictureError(PICTURE_TOO_LARGE);
    setPictureBusy(true);
    try {
      await api.uploadAvatar(file);
      await loadPicture();
      setPictureNote('Picture updated');
    } catch (e) {
      setPictureError(fieldMessage(e, 'avatar'));
    } finally {
      setPictureBusy(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  }

  async function removePicture() {
    setPictureError('');
    setPictureNote('');
    setPictureBusy(true);
    try {
      await api.removeAvatar();
      setPictureUrl(null);
      setPictureNote('Picture removed');
    } catch (e) {
      setPictureError(fieldMessage(e, 'avatar'));
    } finally {
      setPictureBusy(false);
    }
  }

  const introLength = intro.trim().length;
  const introTooLong = introLength > INTRO_MAX_LENGTH;

  async function saveIntro() {
    setIntroSaved(false);
    if (introTooLong) return setIntroError(`Introduction must be at most ${INTRO_MAX_LENGTH} characters`);
    setIntroError('');
    setIntroSaving(true);
    try {
      const { profile } = await api.updateIntro(intro.trim() || null);
      setIntro(profile.intro ?? '');
      setSavedIntro(profile.intro ?? '');
      setIntroSaved(true);
    } catch (e) {
      setIntroError(fieldMessage(e, 'intro'));
    } finally {
      setIntroSaving(false);
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

      <div className="field" role="group" aria-labelledby="profile-picture-label" aria-describedby="profile-picture-help">
        <span id="profile-picture-label" className="field-label">
          Picture
        </span>
        <div className="profile-picture">
          {pictureUrl ? (
            <img className="profile-avatar" src={pictureUrl} alt="Your picture" width={64} height={64} data-testid="profile-picture" />
          ) : (
            <span className={`profile-avatar profile-avatar--initials profile-avatar--tone-${hostTone(name)}`} data-testid="profile-initials" aria-label={`No picture: visitors see your initials, ${hostInitials(name)}`} role="img">
              {hostInitials(name)}
            </span>
          )}
          <div className="profile-picture-actions">
            <input
              ref={fileInput}
              id="profile-picture-input"
              className="sr-only"
              type="file"
              accept={PICTURE_TYPES.join(',')}
              aria-labelledby="profile-picture-label"
              aria-describedby="profile-picture-help profile-picture-error"
              aria-invalid={pictureError ? true : undefined}
              tabIndex={-1}
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void upload(file);
              }}
            />
            <button type="button" className="btn btn-secondary" disabled={pictureBusy} onClick={() => fileInput.current?.click()}>
              {pictureBusy ? 'Working...' : pictureUrl ? 'Upload a new picture' : 'Upload picture'}
            </button>
            {pictureUrl && (
              <button type="button" className="btn btn-ghost" disabled={pictureBusy} onClick={() => void removePicture()}>
                Remove
              </button>
            )}
          </div>
        </div>
        <p id="profile-picture-help" className="muted small">
          Shown round on your public page. PNG, JPEG or WebP, up to 2 MB; we keep a 256 × 256 copy without the photo's metadata (such as location).
        </p>
        <p id="profile-picture-error" className="field-error" role="alert">
          {pictureError}
        </p>
        <p className="muted small" role="status">
          {pictureNote}
        </p>
      </div>

      <div className="field">
        <label htmlFor="profile-intro">Introduction</label>
        <div className="inline-form">
          <input
            id="profile-intro"
            type="text"
            value={intro}
            placeholder="e.g. Product designer in Ghent. Happy to chat about your project."
            disabled={!introLoaded}
            aria-describedby="profile-intro-count profile-intro-error"
            aria-invalid={introError || introTooLong ? true : undefined}
            onChange={(e) => {
              setIntro(e.target.value);
              setIntroError('');
              setIntroSaved(false);
            }}
          />
          <button type="button" className="btn btn-primary" disabled={!introLoaded || introSaving || intro.trim() === savedIntro} onClick={() => void saveIntro()}>
            {introSaving ? 'Saving...' : 'Save introduction'}
          </button>
        </div>
        <p id="profile-intro-count" className={introTooLong ? 'field-error small' : 'muted small'}>
          {introLength}/{INTRO_MAX_LENGTH} · One line under your name on your public page.
        </p>
        <p id="profile-intro-error" className="field-error" role="alert">
          {introError}
        </p>
        <p className="muted small" role="status">
          {introSaved ? 'Introduction saved' : ''}
        </p>
      </div>

      <DateFormatFields />
    </section>
  );
}
