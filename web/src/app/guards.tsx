/** Route guards (spec §2 "Route guard rules"). */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { FullScreenLoader } from '../components/ui/spinner.tsx';
import { useSession } from '../data/session.tsx';

/** Signed in required; verified e-mail required unless `allowUnverified`. */
export function RequireAuth({ children, allowUnverified = false }: { children: ReactNode; allowUnverified?: boolean }) {
  const { status, isVerified } = useSession();
  const location = useLocation();
  if (status === 'loading') return <FullScreenLoader />;
  if (status === 'unauthenticated') return <Navigate to="/login" replace state={{ from: location }} />;
  if (!allowUnverified && !isVerified) return <Navigate to="/app/onboarding" replace />;
  return <>{children}</>;
}

/**
 * /login and /register: a signed-in verified user goes to the dashboard — or, right after a login
 * that a guard asked for, to the remembered location.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { status, isVerified } = useSession();
  const location = useLocation();
  if (status === 'loading') return <FullScreenLoader />;
  if (status === 'authenticated' && isVerified) {
    const from = (location.state as { from?: { pathname: string; search?: string; hash?: string } } | null)?.from;
    const to = from ? `${from.pathname}${from.search ?? ''}${from.hash ?? ''}` : '/app/dashboard';
    return <Navigate to={to} replace />;
  }
  return <>{children}</>;
}
