/**
 * /privacypolicy and /termsofservice — static legal pages with the spec's facts (§1): minimum age
 * 16, account data removed within 30 days of account deletion, Belgian law, © 2025, and the data
 * held (name, e-mail and timezone; calendar connections Google, CalDAV, Apple; proposals; views).
 */
import { Link } from 'react-router-dom';
import { SimplePage, SUPPORT_EMAIL } from './marketing-layout.tsx';

const UPDATED = 'Last updated: 2025';

function PrivacyPolicy() {
  return (
    <SimplePage title="Privacy Policy" intro="What Avail keeps about you, why, and for how long." logoExternal>
      <p className="muted small">{UPDATED}</p>

      <h2>The data we hold</h2>
      <ul>
        <li>
          <strong>Account data:</strong> your name, e-mail and timezone.
        </li>
        <li>
          <strong>Calendar connections</strong> (Google, CalDAV, Apple — and Microsoft Outlook or an ICS feed if you add one):
          the access needed to read them, and the busy times read from them. We use these only to compute your free windows.
          Connections are read-only; Avail never changes your calendars.
        </li>
        <li>
          <strong>Your availability settings:</strong> your weekly hours, exceptions and public username.
        </li>
        <li>
          <strong>Time proposals:</strong> when a visitor proposes a time on your public page, the name, e-mail and note they
          enter are stored and sent to you, the owner of the page, by e-mail.
        </li>
        <li>
          <strong>Page views:</strong> views of a public page are counted once per visitor per day, without storing IP
          addresses.
        </li>
      </ul>

      <h2>What visitors see</h2>
      <p>Your public link shows only free windows — never event titles, guests or details.</p>

      <h2>Deleting your data</h2>
      <p>When you delete your account, your account data is removed within 30 days of account deletion.</p>

      <h2>Age</h2>
      <p>You must be at least 16 years old to use Avail.</p>

      <h2>Governing law</h2>
      <p>This policy is governed by the laws of Belgium.</p>

      <h2>Contact</h2>
      <p>
        Questions about your data? Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. See also our{' '}
        <Link to="/termsofservice">Terms of Service</Link>.
      </p>
      <p className="muted small">© 2025 Avail.</p>
    </SimplePage>
  );
}

function TermsOfService() {
  return (
    <SimplePage title="Terms of Service" intro="The rules for using Avail during the beta." logoExternal>
      <p className="muted small">{UPDATED}</p>

      <h2>The service</h2>
      <p>
        Avail shows your free time on a public link. Visitors propose a time and you confirm it; Avail does not book anything
        in your calendars. Avail is in beta and provided as is.
      </p>

      <h2>Eligibility</h2>
      <p>You must be at least 16 years old to create an account.</p>

      <h2>Your account</h2>
      <p>Keep your password safe. You are responsible for what is shared through your public link.</p>

      <h2>Your data</h2>
      <p>
        Account data is removed within 30 days of account deletion. Our <Link to="/privacypolicy">Privacy Policy</Link> lists
        the data we hold.
      </p>

      <h2>Pricing</h2>
      <p>The Individual plan is free during the beta. A Pro plan is coming soon; we will announce its price before it starts.</p>

      <h2>Governing law</h2>
      <p>These terms are governed by the laws of Belgium.</p>

      <h2>Contact</h2>
      <p>
        Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
      </p>
      <p className="muted small">© 2025 Avail.</p>
    </SimplePage>
  );
}

/** The legal page of `kind`: privacy policy or terms of service. */
export default function LegalPage({ kind }: { kind: 'privacy' | 'terms' }) {
  return kind === 'privacy' ? <PrivacyPolicy /> : <TermsOfService />;
}
