import '../../styles/marketing.css';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '../../components/ui/logo.tsx';

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

export function MarketingFooter() {
  return (
    <footer className="mk-footer">
      <div className="mk-container mk-footer-inner">
        <Logo external />
        <nav aria-label="Footer">
          <Link to="/">Home</Link>
          <Link to="/login">Login</Link>
          <Link to="/register">Sign up</Link>
          <Link to="/privacypolicy">Privacy Policy</Link>
          <Link to="/termsofservice">Terms of Service</Link>
        </nav>
        <p className="muted small">© 2025 Avail. All rights reserved.</p>
      </div>
    </footer>
  );
}

export function SimplePage({ title, children, logoExternal = false }: { title: string; children: ReactNode; logoExternal?: boolean }) {
  return (
    <div className="mk-page">
      <header className="mk-header static">
        <div className="mk-container mk-header-inner">
          <Logo external={logoExternal} />
          <div className="mk-header-cta">
            <HeaderAuthLinks />
          </div>
        </div>
      </header>
      <main className="mk-container prose">
        <h1>{title}</h1>
        {children}
      </main>
      <MarketingFooter />
    </div>
  );
}
