/** Links (spec §2 Links): username, the public link with Copy, an e-mail text template. */
import { useEffect, useState } from 'react';
import { api, serverMessage } from '@avail/shared/api/api-client.ts';
import { useSession } from '../../app/session.tsx';
import { useAlert } from '../../components/ui/alert.tsx';
import { useUsernameCheck } from '../../components/use-username-check.ts';
import { useCopy } from './use-copy.ts';
import { useStore } from './use-store.ts';

function defaultText(name: string, link: string) {
  return `Hi,\n\nHere are the times I'm free: ${link}\n\nPick a slot that works for you and propose it by replying to this email — I'll confirm.\n\nBest,\n${name}`;
}

export default function LinksPage() {
  const { user, refreshUser } = useSession();
  const profile = useStore('profile', () => api.profile());
  const p = profile.data?.profile;
  const current = p?.username ?? user?.username ?? '';
  const link = `${window.location.origin}/${current || 'username'}`;
  const linkCopy = useCopy();
  const textCopy = useCopy();
  const alert = useAlert();
  const [value, setValue] = useState('');
  // Clearing the field says 'Username is required'; an untouched empty field says nothing.
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const [text, setText] = useState('');
  const canChange = p ? p.can_change_username : true;
  const check = useUsernameCheck(value, current, touched);
  const available = check.status === 'available';

  useEffect(() => setValue(current), [current]);
  useEffect(() => setText(defaultText(user?.name ?? '', link)), [user?.name, link]);


  async function save() {
    if (!canChange) {
      alert.show('error', 'Username changes are not currently allowed.');
      return;
    }
    setSaving(true);
    try {
      await api.updateUsername(value);
      alert.show('success', 'Username updated successfully!');
      await Promise.all([profile.reload(true), refreshUser()]);
    } catch (e) {
      alert.show('error', serverMessage(e) ?? 'Failed to save username. Please try again.');
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Links</h1>
          <p className="muted">Your public availability link and a ready-to-send message.</p>
        </div>
      </div>
      {alert.node}
      <section className="card">
        <h2 className="card-title">Your public link</h2>
        <div className="copy-row">
          <code className="link-box">{link}</code>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => void linkCopy.copy(link)}>
            {linkCopy.copied ? 'Copied!' : 'Copy'}
          </button>
        </div>
      </section>
      <section className="card">
        <h2 className="card-title">Username</h2>
        <p className="muted small">
          {canChange ? 'You can change your username once every 2 weeks.' : `You can change your username again in ${p?.days_until_change ?? 0} days.`}
        </p>
        <div className="field">
          <label htmlFor="links-username">Username</label>
          <div className="input-prefix">
            <span aria-hidden="true">{window.location.host}/</span>
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
      <section className="card">
        <h2 className="card-title">Email text</h2>
        <label className="sr-only" htmlFor="email-text">
          Email text
        </label>
        <textarea id="email-text" rows={8} value={text} onChange={(e) => setText(e.target.value)} />
        <div className="toolbar">
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setText(defaultText(user?.name ?? '', link))}>
            Generate New Text
          </button>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => void textCopy.copy(text)}>
            {textCopy.copied ? 'Copied!' : 'Copy Email Text'}
          </button>
        </div>
      </section>
    </div>
  );
}
