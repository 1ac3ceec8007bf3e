/** Login (spec §2 Login, §4 login screen states, §8 login messages). */
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { api, serverMessage } from '@avail/shared/api/api-client.ts';
import { useSession } from '../../data/session.tsx';
import { Alert, useAutoDismiss } from '../../components/ui/alert.tsx';
import { SESSION_ONLY_TOKEN_TEXT, ServerGate, usePlatformInfo } from '../../components/server-field.tsx';
import { AuthLayout } from './auth-layout.tsx';
import { TWO_FACTOR_THROTTLED_TEXT, TwoFactorStep } from './two-factor-step.tsx';
import { PasswordField } from '../../components/password-field.tsx';

export default function LoginPage() {
  const { login, signedOutNotice, clearSignedOutNotice } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // 'code': the server asked for the second factor; the e-mail and password wait in this state
  // (memory only) for that step and are sent again with the code (issue 26).
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [showPassword, setShowPassword] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState('');
  const { tokenPersistence } = usePlatformInfo();
  const { resending, resendNotice, setResendNotice, onResend } = useResendVerification(email);

  const from = (location.state as { from?: { pathname: string; search?: string; hash?: string } } | null)?.from;
  const showResend = /verify|email/i.test(error);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!email.trim() || !password) return;
    setSubmitting(true);
    setError('');
    setResendNotice(null);
    const res = await login(email.trim(), password);
    setSubmitting(false);
    if (res.success) {
      goOn();
    } else if (res.code === 'two_factor_required') {
      setStep('code');
    } else if (res.requiresVerification) {
      navigate(`/verify-email?email=${encodeURIComponent(res.email ?? email.trim())}`, { state: { notice: res.message } });
    } else {
      setError(res.message || 'Login failed');
    }
  }

  function goOn() {
    const target = from ? `${from.pathname}${from.search ?? ''}${from.hash ?? ''}` : '/dashboard';
    navigate(target, { replace: true });
  }

  /** The second step's code with the remembered e-mail and password: '' when signed in, else the message for under the field. */
  async function verifyCode(code: string): Promise<string> {
    const res = await login(email.trim(), password, code);
    if (res.success) {
      goOn();
      return '';
    }
    if (res.status === 429) return res.message || TWO_FACTOR_THROTTLED_TEXT;
    return res.message || 'The code is incorrect.';
  }

  function backToPassword() {
    setPassword('');
    setStep('password');
  }

  // spec §4: these alerts close by themselves like every other (10 s for errors, 5 s otherwise).
  useAutoDismiss(error, 'error', () => setError(''));
  // Why the server ended the last session (expired, or signed out elsewhere; issue 26).
  useAutoDismiss(signedOutNotice, 'warning', clearSignedOutNotice);
  return (
    <AuthLayout
      title={step === 'code' ? 'Two-step verification' : 'Welcome back'}
      subtitle={step === 'code' ? `Signing in as ${email.trim()}.` : 'Sign in to manage your availability.'}
      footer={
        <p>
          Don&apos;t have an account? <Link to="/register">Create one</Link>
        </p>
      }
    >
      {signedOutNotice && <Alert kind="warning">{signedOutNotice}</Alert>}
      {tokenPersistence === 'session' && <Alert kind="info">{SESSION_ONLY_TOKEN_TEXT}</Alert>}
      {step === 'code' ? (
        <TwoFactorStep verify={verifyCode} onBack={backToPassword} />
      ) : (
        <ServerGate idPrefix="login">
          <form className="form" onSubmit={onSubmit} noValidate={false}>
            {error && (
              <Alert kind="error">
                <p>{error}</p>
                {showResend && (
                  <button type="button" className="btn btn-link" onClick={onResend} disabled={resending}>
                    {resending ? 'Sending...' : 'Resend verification email'}
                  </button>
                )}
              </Alert>
            )}
            {resendNotice && <Alert kind={resendNotice.kind}>{resendNotice.text}</Alert>}
            <div className="field">
              <label htmlFor="login-email">Email</label>
              <input
                id="login-email"
                type="email"
                name="email"
                autoComplete="email"
                required
                value={email}
                onChange={(e) => {
                  setEmail(e.target.value);
                }}
                placeholder="you@example.com"
              />
            </div>
            <PasswordField
              id="login-password"
              label="Password"
              labelAside={
                <Link to="/forgot-password" className="small-link">
                  Forgot password?
                </Link>
              }
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={setPassword}
              shown={showPassword}
              onToggleShown={() => setShowPassword((s) => !s)}
            />
            <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
              {submitting ? 'Signing in...' : 'Sign in'}
            </button>
          </form>
        </ServerGate>
      )}
    </AuthLayout>
  );
}

/**
 * "Resend verification email" under a sign-in refused for an unverified address (spec §8 login
 * messages): sends a new code to `email`, and the notice saying how that went (auto-dismissed).
 */
function useResendVerification(email: string) {
  const [resending, setResending] = useState(false);
  const [resendNotice, setResendNotice] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  useAutoDismiss(resendNotice, resendNotice?.kind ?? 'info', () => setResendNotice(null));

  async function onResend() {
    setResendNotice(null);
    if (!email.trim()) {
      setResendNotice({ kind: 'error', text: 'Please enter your email address first' });
      return;
    }
    setResending(true);
    try {
      await api.resendVerification(email.trim());
      setResendNotice({ kind: 'success', text: 'Verification email sent! Please check your inbox.' });
    } catch (err) {
      setResendNotice({ kind: 'error', text: serverMessage(err) ?? 'Failed to resend verification email' });
    } finally {
      setResending(false);
    }
  }
  return { resending, resendNotice, setResendNotice, onResend };
}
