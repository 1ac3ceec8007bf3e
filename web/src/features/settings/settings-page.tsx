/** Settings (spec §2 Settings): My Calendars (#calendars), Profile, This device (desktop app only), changes replaced on another device, Notifications, Privacy & Security. */
import '../../styles/app.css';
import './settings.css';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { AppHeader } from '../../components/app-header.tsx';
import { CalendarsSection } from './calendars-section.tsx';
import { ConfirmedMeetingsSection } from './confirmed-meetings-section.tsx';
import { ConflictsSection } from './conflicts-section.tsx';
import { DeleteAccountSection } from './delete-account-section.tsx';
import { DeviceSection } from './device-section.tsx';
import { EmailChangeSection } from './email-change-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { ProfileSection } from './profile-section.tsx';
import { SessionsSection } from './sessions-section.tsx';
import { TwoFactorSection } from './two-factor-section.tsx';

export default function SettingsPage() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const el = document.getElementById(hash.slice(1));
    if (el) {
      el.scrollIntoView({ block: 'start' });
      el.focus({ preventScroll: true });
    }
  }, [hash]);

  return (
    <div className="app-layout">
      <AppHeader />
      <main className="app-main">
        <div className="page">
          <div className="page-header">
            <div className="with-back">
              <Link to="/app/dashboard" className="icon-button bordered" aria-label="Back to dashboard">
                ←
              </Link>
              <div>
                <h1>Settings</h1>
                <p className="muted">Calendars, profile and account preferences.</p>
              </div>
            </div>
          </div>
          <CalendarsSection />
          <ConfirmedMeetingsSection />
          <ProfileSection />
          <DeviceSection />
          <ConflictsSection />
          <section className="card" aria-labelledby="notifications-title">
            <div className="card-header">
              <h2 id="notifications-title" className="card-title">
                Notifications
              </h2>
              <span className="badge">Coming soon</span>
            </div>
            <p className="muted">Proposed times already reach you by email. Choosing which emails you get, and alerts about sync problems, are coming soon.</p>
          </section>
          <section className="card" aria-labelledby="privacy-title">
            <div className="card-header">
              <h2 id="privacy-title" className="card-title">
                Privacy &amp; Security
              </h2>
              {/* Spec §2 (S-04) marks this section "coming soon"; issues 23 and 26 override that: the section
                  works (signed-in devices, password and e-mail change, account deletion), so no badge. */}
            </div>
            <SessionsSection />
            <PasswordSection />
            <TwoFactorSection />
            <EmailChangeSection />
            <h3 className="subhead">Delete account</h3>
            <DeleteAccountSection />
          </section>
        </div>
      </main>
    </div>
  );
}
