import { Link } from 'react-router-dom';
import { SimplePage } from './marketing-layout.tsx';

export default function SupportPage() {
  return (
    <SimplePage title="Support">
      <p>Need a hand? Write to <a href="mailto:support@avail.app">support@avail.app</a> and we will get back to you within one business day.</p>
      <h2>Common questions</h2>
      <ul>
        <li>Didn&apos;t get your verification code? Check your spam folder, then use &ldquo;Resend verification code&rdquo; on the verify screen.</li>
        <li>Forgot your password? See <Link to="/forgot-password">password help</Link>.</li>
        <li>Calendar not syncing? Open Settings → My Calendars and press Sync Now; the last error is shown there.</li>
      </ul>
    </SimplePage>
  );
}
