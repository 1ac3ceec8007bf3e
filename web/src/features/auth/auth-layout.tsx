import '../../styles/app.css';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from '../../components/ui/logo.tsx';

export function AuthLayout({ title, subtitle, children, footer, logoExternal = false }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode; logoExternal?: boolean }) {
  return (
    <div className="auth-page">
      <header className="auth-top">
        <Logo external={logoExternal} />
      </header>
      <main className="auth-card card">
        <h1 className="auth-title">{title}</h1>
        {subtitle && <p className="auth-subtitle">{subtitle}</p>}
        {children}
      </main>
      {/* A landmark of its own (contentinfo), so no content sits outside one (axe `region`, issue 23). */}
      {footer && <footer className="auth-footer">{footer}</footer>}
      <nav className="auth-legal" aria-label="Legal">
        <Link to="/privacypolicy">Privacy</Link>
        <Link to="/termsofservice">Terms</Link>
        <Link to="/support">Support</Link>
      </nav>
    </div>
  );
}
