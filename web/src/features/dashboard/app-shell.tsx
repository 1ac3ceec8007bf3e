/** Signed-in layout: header (logo, settings, user, logout) and the dashboard tabs. */
import '../../styles/app.css';
import { NavLink, Outlet } from 'react-router-dom';
import { AppHeader } from '../../components/app-header.tsx';

const TABS = [
  { to: '/app/dashboard', label: 'Overview' },
  { to: '/app/availability', label: 'Availability' },
  { to: '/app/links', label: 'Links' },
  { to: '/app/analytics', label: 'Analytics' },
];

export default function AppShell() {
  return (
    <div className="app-layout">
      <AppHeader />
      <nav className="tabs" aria-label="Dashboard">
        <div className="tabs-inner">
          {TABS.map((t) => (
            <NavLink key={t.to} to={t.to} className={({ isActive }) => `tab${isActive ? ' active' : ''}`}>
              {t.label}
            </NavLink>
          ))}
        </div>
      </nav>
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
}
