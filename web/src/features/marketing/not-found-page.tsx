/** The 404 page for unknown paths (`*`, `/app/*`, reserved names). */
import '../../styles/marketing.css';
import { Link } from 'react-router-dom';
import { Logo } from '../../components/ui/logo.tsx';
import { SUPPORT_EMAIL, useDocumentTitle } from './marketing-layout.tsx';

/** A real 'Page not found' page: heading, explanation, a link home; sets the document title. */
export default function NotFoundPage() {
  useDocumentTitle('Page not found · Avail');
  return (
    <div className="notfound-page">
      <header className="notfound-top">
        <Logo />
      </header>
      <main className="notfound">
        <p className="notfound-code" aria-hidden="true">
          404
        </p>
        <h1>Page not found</h1>
        <p className="muted">The page you are looking for does not exist or has moved. Check the address, or start again from the home page.</p>
        <div className="notfound-actions">
          <Link to="/" className="btn btn-primary">
            Back to home
          </Link>
          <Link to="/support" className="btn btn-secondary">
            Get help
          </Link>
        </div>
        <p className="muted small">
          Looking for someone&apos;s availability? Ask them for their link — it looks like avail.app/their-name. Or write to{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>
      </main>
    </div>
  );
}
