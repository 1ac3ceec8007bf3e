import { Link } from 'react-router-dom';

/** External marketing site the logo links to on public pages (spec §2 "Logo click"). */
const MARKETING_SITE_URL = 'https://avail.app';

function Mark() {
  return (
    <svg className="logo-mark" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <path d="M9 17l5 5 9-11" stroke="white" strokeWidth="3.5" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** `external`: the marketing site (/, legal pages); otherwise /app/dashboard. */
export function Logo({ external = false }: { external?: boolean }) {
  const inner = (
    <>
      <Mark />
      <span className="logo-text">Avail</span>
    </>
  );
  return external ? (
    <a className="logo" href={MARKETING_SITE_URL} aria-label="Avail home">
      {inner}
    </a>
  ) : (
    <Link className="logo" to="/app/dashboard" aria-label="Avail dashboard">
      {inner}
    </Link>
  );
}
