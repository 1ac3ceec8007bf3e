/** /privacypolicy and /termsofservice — static legal pages (spec §1 legal facts). */
import { SimplePage } from './marketing-layout.tsx';

export default function LegalPage({ kind }: { kind: 'privacy' | 'terms' }) {
  if (kind === 'privacy') {
    return (
      <SimplePage title="Privacy Policy" logoExternal>
        <p className="muted">Last updated: 2025</p>
        <h2>What we hold</h2>
        <p>
          Account data: your name, e-mail and timezone. Calendar connections (Google, CalDAV, Apple) and the busy times read from
          them, used only to compute your free windows.
        </p>
        <h2>What visitors see</h2>
        <p>Your public link shows only free windows — never event titles, guests or details.</p>
        <h2>Deletion</h2>
        <p>When you delete your account, your account data is removed within 30 days.</p>
        <h2>Age</h2>
        <p>You must be at least 16 years old to use Avail.</p>
        <p>Questions? Write to support@avail.app.</p>
      </SimplePage>
    );
  }
  return (
    <SimplePage title="Terms of Service" logoExternal>
      <p className="muted">Last updated: 2025</p>
      <h2>The service</h2>
      <p>Avail shows your free time on a public link. It is in beta and provided as is.</p>
      <h2>Eligibility</h2>
      <p>You must be at least 16 years old to create an account.</p>
      <h2>Your data</h2>
      <p>Account data is removed within 30 days of account deletion.</p>
      <h2>Governing law</h2>
      <p>These terms are governed by the laws of Belgium.</p>
      <p>© 2025 Avail.</p>
    </SimplePage>
  );
}
