import '../../styles/marketing.css';
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '../../components/ui/logo.tsx';

/** The address people write to for help (landing page, /support, legal pages). */
export const SUPPORT_EMAIL = 'support@avail.app';

/** Sets `document.title` while the calling page is shown, and puts the previous title back after. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}

/** The top bar's 'Login' and 'Get started' buttons (landing page and simple pages). */
export function HeaderAuthLinks() {
  return (
    <>
      <Link to="/login" className="btn btn-ghost btn-sm">
        Login
      </Link>
      <Link to="/register" className="btn btn-primary btn-sm">
        Get started
      </Link>
    </>
  );
}

/** A grid of titled cards (landing page features and use cases). */
export function CardGrid({ items, columns }: { items: ReadonlyArray<readonly [string, string]>; columns: 'three' | 'four' }) {
  return (
    <div className={`mk-grid ${columns}`}>
      {items.map(([title, text]) => (
        <article key={title} className="card mk-feature">
          <h3>{title}</h3>
          <p className="muted">{text}</p>
        </article>
      ))}
    </div>
  );
}

/** The footer of the landing, legal and support pages: the spec's five links, support, © 2025. */
export function MarketingFooter({ logoExternal = true }: { logoExternal?: boolean }) {
  return (
    <footer className="mk-footer">
      <div className="mk-container mk-footer-inner">
        <Logo external={logoExternal} />
        <nav aria-label="Footer">
          <Link to="/">Home</Link>
          <Link to="/login">Login</Link>
          <Link to="/register">Sign up</Link>
          <Link to="/privacypolicy">Privacy Policy</Link>
          <Link to="/termsofservice">Terms of Service</Link>
          <Link to="/support">Support</Link>
        </nav>
        <p className="muted small">© 2025 Avail. All rights reserved.</p>
      </div>
    </footer>
  );
}

/** A static page (legal, support): top bar, one titled article, footer; sets the document title. */
export function SimplePage({ title, intro, children, logoExternal = false }: { title: string; intro?: ReactNode; children: ReactNode; logoExternal?: boolean }) {
  useDocumentTitle(`${title} · Avail`);
  return (
    <div className="mk-page">
      <header className="mk-header static">
        <div className="mk-container mk-header-inner">
          <Logo external={logoExternal} />
          <div className="mk-header-cta always">
            <HeaderAuthLinks />
          </div>
        </div>
      </header>
      <main className="mk-container prose">
        <h1>{title}</h1>
        {intro && <p className="lead">{intro}</p>}
        {children}
      </main>
      <MarketingFooter logoExternal={logoExternal} />
    </div>
  );
}
