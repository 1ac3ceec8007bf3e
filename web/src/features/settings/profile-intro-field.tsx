/**
 * Settings → Profile → Introduction (issue 22 item 4): one line under the owner's name on the
 * public page, ≤ INTRO_MAX_LENGTH (160) characters with a counter (PUT /me/intro; '' removes it).
 * Errors show under the field.
 */
import { useEffect, useState } from 'react';
import { api } from '@avail/shared/api/api-client.ts';
import { INTRO_MAX_LENGTH } from '@avail/shared/schemas/profile.schema.ts';
import { fieldMessage } from './profile-picture-field.tsx';

export function IntroField() {
  const [intro, setIntro] = useState('');
  const [savedIntro, setSavedIntro] = useState('');
  const [introLoaded, setIntroLoaded] = useState(false);
  const [introSaving, setIntroSaving] = useState(false);
  const [introError, setIntroError] = useState('');
  const [introSaved, setIntroSaved] = useState(false);

  useEffect(() => {
    api
      .profile()
      .then(({ profile }) => {
        setIntro(profile.intro ?? '');
        setSavedIntro(profile.intro ?? '');
        setIntroLoaded(true);
      })
      .catch(() => setIntroError('Failed to load profile data'));
  }, []);

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

  return (
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
  );
}
