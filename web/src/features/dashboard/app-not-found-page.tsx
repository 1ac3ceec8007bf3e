/**
 * An unknown address under /app for a signed-in owner (issue 23 item 10): "Page not found" inside
 * the app shell (header and tabs stay), what to do next, and a button back to the dashboard.
 * Signed-out visitors get the public not-found page (router).
 */
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';

export default function AppNotFoundPage() {
  const { pathname } = useLocation();
  useEffect(() => {
    const previous = document.title;
    document.title = 'Page not found · Avail';
    return () => {
      document.title = previous;
    };
  }, []);
  return (
    <div className="page">
      <section className="card empty-state app-not-found" aria-labelledby="app-not-found-title">
        <p className="app-not-found-code" aria-hidden="true">
          404
        </p>
        <h1 id="app-not-found-title">Page not found</h1>
        <p className="muted">
          There is nothing at <code className="app-not-found-path">{pathname}</code> in your Avail account. Check the address, or go back to your dashboard and
          pick a tab from there.
        </p>
        <div className="toolbar app-not-found-actions">
          <Link to="/app/dashboard" className="btn btn-primary">
            Back to dashboard
          </Link>
          <Link to="/app/settings" className="btn btn-secondary">
            Open Settings
          </Link>
        </div>
      </section>
    </div>
  );
}
