/**
 * Routes (spec §2 route table). Every screen is a lazy chunk; the visitor's public page is its
 * own small chunk. Reserved names (RESERVED_USERNAMES) never reach the public page.
 */
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate, useParams } from 'react-router-dom';
import { isReservedUsername } from '@avail/shared/constants.ts';
import { getToken } from '@avail/shared/api/api-client.ts';
import { bridge } from '../platform/platform.ts';
import { sessionTrayState } from '../features/tray/session-tray-state.ts';
import { FullScreenLoader } from '../components/ui/spinner.tsx';
import { GuestOnly, RequireAuth } from './guards.tsx';
import { SessionProvider, useSession } from '../data/session.tsx';
import { onPostLogout } from '../data/session-expiry.ts';

const LandingPage = lazy(() => import('../features/marketing/landing-page.tsx'));
const LegalPage = lazy(() => import('../features/marketing/legal-page.tsx'));
const SupportPage = lazy(() => import('../features/marketing/support-page.tsx'));
const NotFoundPage = lazy(() => import('../features/marketing/not-found-page.tsx'));
const LoginPage = lazy(() => import('../features/auth/login-page.tsx'));
const RegisterPage = lazy(() => import('../features/auth/register-page.tsx'));
const VerifyEmailPage = lazy(() => import('../features/auth/verify-email-page.tsx'));
const ForgotPasswordPage = lazy(() => import('../features/auth/forgot-password-page.tsx'));
const OnboardingPage = lazy(() => import('../features/onboarding/onboarding-page.tsx'));
const AppShell = lazy(() => import('../features/dashboard/app-shell.tsx'));
const OverviewPage = lazy(() => import('../features/dashboard/overview-page.tsx'));
const AvailabilityPage = lazy(() => import('../features/dashboard/availability-page.tsx'));
const LinksPage = lazy(() => import('../features/dashboard/links-page.tsx'));
const AnalyticsPage = lazy(() => import('../features/dashboard/analytics-page.tsx'));
const AppNotFoundPage = lazy(() => import('../features/dashboard/app-not-found-page.tsx'));
const SettingsPage = lazy(() => import('../features/settings/settings-page.tsx'));
const ProposalLinkPage = lazy(() => import('../features/proposal-link/proposal-link-page.tsx'));
const PublicPage = lazy(() => import('../features/public/public-standalone.tsx'));
const DesktopIntegration = lazy(() => import('../features/tray/desktop-integration.tsx'));

/** /{slug} and /u/{slug}: reserved names are not users. */
function PublicRoute() {
  const { slug = '' } = useParams();
  if (!slug || isReservedUsername(slug)) return <NotFoundPage />;
  return <PublicPage slug={slug} />;
}

/** Registers the post-logout callback: go to /login. */
function PostLogoutNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    onPostLogout(() => navigate('/login', { replace: true }));
    return () => onPostLogout(null);
  }, [navigate]);
  return null;
}

function ScrollToHash() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}

/**
 * The platform's tray and notifications (issue 10): a notification click or tray item opens a
 * route; a signed-out (or not yet verified) app tells the tray so (`sessionTrayState`); a signed-in, verified owner gets the tray's live state
 * and commands (a lazy chunk: visitors of public pages never load it).
 */
function PlatformIntegration() {
  const navigate = useNavigate();
  const { status, user } = useSession();
  useEffect(() => bridge.onCommand((c) => c.type === 'navigate' && navigate(c.route)), [navigate]);
  const verified = Boolean(user?.email_verified_at);
  useEffect(() => {
    // Signed out only without a token: an offline start that could not check a stored one is still the owner's.
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    const state = sessionTrayState({ status, hasToken: getToken() !== null, verified, zone, now: Date.now() });
    if (state) bridge.setTrayState(state);
  }, [status, verified]);
  if (status !== 'authenticated' || !user?.email_verified_at) return null;
  return (
    <Suspense fallback={null}>
      <DesktopIntegration />
    </Suspense>
  );
}

const protectedApp = (el: ReactNode) => <RequireAuth>{el}</RequireAuth>;

/**
 * An unknown /app address (issue 23 item 10): a signed-in, verified owner stays in the app shell
 * (its page says what to do next); anyone else gets the public not-found page.
 */
function AppShellOrPublicNotFound() {
  const { status, isVerified } = useSession();
  if (status === 'loading') return <FullScreenLoader />;
  return status === 'authenticated' && isVerified ? <AppShell /> : <NotFoundPage />;
}

function AppRoutes() {
  return (
    <Suspense fallback={<FullScreenLoader />}>
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="/privacypolicy" element={<LegalPage kind="privacy" />} />
        <Route path="/termsofservice" element={<LegalPage kind="terms" />} />
        <Route path="/support" element={<SupportPage />} />
        <Route path="/login" element={<GuestOnly><LoginPage /></GuestOnly>} />
        <Route path="/register" element={<GuestOnly><RegisterPage /></GuestOnly>} />
        <Route path="/verify-email" element={<VerifyEmailPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        {/* The owner's one-click proposal link (issue 24): public, the token in the fragment. */}
        <Route path="/proposal" element={<ProposalLinkPage />} />

        <Route path="/app" element={<Navigate to="/app/dashboard" replace />} />
        <Route path="/app/onboarding" element={<RequireAuth allowUnverified><OnboardingPage /></RequireAuth>} />
        <Route path="/app/settings" element={protectedApp(<SettingsPage />)} />
        <Route element={protectedApp(<AppShell />)}>
          <Route path="/app/dashboard" element={<OverviewPage />} />
          <Route path="/app/availability" element={<AvailabilityPage />} />
          <Route path="/app/links" element={<LinksPage />} />
          <Route path="/app/analytics" element={<AnalyticsPage />} />
        </Route>
        <Route element={<AppShellOrPublicNotFound />}>
          <Route path="/app/*" element={<AppNotFoundPage />} />
        </Route>

        {['onboarding', 'dashboard', 'availability', 'links', 'analytics', 'settings'].map((p) => (
          <Route key={p} path={`/${p}`} element={<AliasRedirect to={`/app/${p}`} />} />
        ))}

        <Route path="/u/:slug" element={<PublicRoute />} />
        <Route path="/:slug" element={<PublicRoute />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}

/** Short alias → /app/… keeping query and hash. */
function AliasRedirect({ to }: { to: string }) {
  const { search, hash } = useLocation();
  return <Navigate to={`${to}${search}${hash}`} replace />;
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <SessionProvider>
        <PostLogoutNavigation />
        <ScrollToHash />
        <PlatformIntegration />
        <AppRoutes />
      </SessionProvider>
    </BrowserRouter>
  );
}
