/** /support: the support e-mail, a link to the FAQ, and short help for common problems. */
import { Link } from 'react-router-dom';
import { SimplePage, SUPPORT_EMAIL } from './marketing-layout.tsx';

/** The support page (linked from the verify screen's 'Contact support'). */
export default function SupportPage() {
  return (
    <SimplePage title="Support" intro="Need a hand? We are here to help.">
      <div className="mk-support-cards">
        <div className="card">
          <h2>E-mail us</h2>
          <p>
            Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> from the address you signed up with. A person will
            answer, usually within one business day.
          </p>
        </div>
        <div className="card">
          <h2>Read the FAQ</h2>
          <p>
            Quick answers about calendars, privacy, time zones and pricing: <Link to="/#faq">see the FAQ</Link>.
          </p>
        </div>
      </div>

      <h2>Common problems</h2>
      <dl className="mk-help">
        <dt>I didn&apos;t get my verification code</dt>
        <dd>
          Check your spam folder. On the verify screen, use &lsquo;Resend verification code&rsquo; to get a new one; codes
          expire after 15 minutes.
        </dd>
        <dt>I forgot my password</dt>
        <dd>
          <Link to="/forgot-password">Reset your password</Link>: we e-mail you a 6-digit code, then you choose a new password.
        </dd>
        <dt>My calendar is not syncing</dt>
        <dd>Open Settings → My Calendars and press Sync Now. The last error of each connection is shown there.</dd>
        <dt>Visitors see the wrong times</dt>
        <dd>
          Visitors see your free windows in their browser&apos;s time zone and can change it on your page. Check that your own
          timezone is right in Settings.
        </dd>
      </dl>
    </SimplePage>
  );
}
