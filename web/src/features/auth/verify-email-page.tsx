/** Verify e-mail (spec §2 Verify e-mail, §5 verification, §8 verification messages). */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { api, serverMessage } from '@avail/shared/api/api-client.ts';
import { RESEND_NOTICE_MS, VERIFICATION_CODE_LENGTH, VERIFIED_REDIRECT_DELAY_MS } from '@avail/shared/constants.ts';
import { useSession } from '../../data/session.tsx';
import { Alert, useAutoDismiss } from '../../components/ui/alert.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { CodeInput } from '../../components/ui/code-input.tsx';
import { AuthLayout } from './auth-layout.tsx';

export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const email = (params.get('email') ?? '').trim();
  const urlCode = params.get('code') ?? '';
  // The server's message of the login/registration that sent the user here (spec §4 Session, T-04).
  const serverNotice = (useLocation().state as { notice?: unknown } | null)?.notice;
  const [arrivalDismissed, setArrivalDismissed] = useState(false);
  const arrivalNotice = !arrivalDismissed && typeof serverNotice === 'string' ? serverNotice.trim() : '';
  const { verifyEmail } = useSession();
  const navigate = useNavigate();
  const [code, setCode] = useState(urlCode.length === VERIFICATION_CODE_LENGTH ? urlCode : '');
  const [error, setError] = useState('');
  const [verifying, setVerifying] = useState(false);
  const [verified, setVerified] = useState(false);
  const [sending, setSending] = useState(false);
  const [notice, setNotice] = useState(false);
  const noticeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // spec §4: alerts close by themselves (10 s for errors, 5 s otherwise).
  useAutoDismiss(error, 'error', () => setError(''));
  useAutoDismiss(arrivalNotice, 'info', () => setArrivalDismissed(true));

  useEffect(() => () => clearTimeout(noticeTimer.current), []);
  useEffect(() => {
    if (!verified) return;
    const t = setTimeout(() => navigate('/app/onboarding', { replace: true }), VERIFIED_REDIRECT_DELAY_MS);
    return () => clearTimeout(t);
  }, [verified, navigate]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError('');
    if (code.length !== VERIFICATION_CODE_LENGTH) {
      setError('Please enter the complete 6-digit code');
      return;
    }
    setVerifying(true);
    try {
      const res = await verifyEmail(email, code);
      if (res.success) setVerified(true);
      else setError(res.message || 'Invalid verification code');
    } catch {
      setError('Failed to verify code. Please try again.');
    } finally {
      setVerifying(false);
    }
  }

  async function onResend() {
    setError('');
    if (!email) {
      setError('Email address is required to resend code');
      return;
    }
    setSending(true);
    try {
      await api.resendVerification(email);
      setNotice(true);
      clearTimeout(noticeTimer.current);
      noticeTimer.current = setTimeout(() => setNotice(false), RESEND_NOTICE_MS);
    } catch (err) {
      setError(serverMessage(err) ?? 'Failed to resend verification code');
    } finally {
      setSending(false);
    }
  }

  if (verified) {
    return (
      <AuthLayout title="Welcome aboard">
        <div className="verify-success" role="status">
          <div className="success-badge" aria-hidden="true">
            ✓
          </div>
          <p className="lead">Congratulations</p>
          <p>Your email is verified.</p>
          <p className="muted">
            <Spinner size={14} /> Redirecting to onboarding...
          </p>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Verify your email"
      subtitle={
        email ? (
          <>
            We sent a 6-digit code to <strong>{email}</strong>.
          </>
        ) : (
          'Enter the 6-digit code we sent to your email.'
        )
      }
      footer={
        <p>
          Having trouble? <Link to="/support">Contact support</Link>
        </p>
      }
    >
      <form className="form" onSubmit={onSubmit} noValidate>
        {arrivalNotice && <Alert kind="info">{arrivalNotice}</Alert>}
        {error && <Alert kind="error">{error}</Alert>}
        {notice && (
          <Alert kind="success">
            <p>New verification code sent to your email!</p>
            <p className="muted">Please check your inbox and spam folder</p>
          </Alert>
        )}
        <div className="field">
          <label htmlFor="verify-code">Verification code</label>
          <CodeInput
            id="verify-code"
            value={code}
            autoFocus
            onKeyDown={(e) => {
              if (e.key === 'Enter' && code.length !== VERIFICATION_CODE_LENGTH) {
                e.preventDefault();
                setError('Please enter the complete 6-digit code');
              }
            }}
            onChange={(e) => {
              setCode(e.target.value.replace(/\s/g, '').slice(0, VERIFICATION_CODE_LENGTH));
              setError('');
            }}
          />
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={verifying || code.length !== VERIFICATION_CODE_LENGTH}>
          {verifying ? 'Verifying...' : 'Verify Email'}
        </button>
        <p className="center muted">
          Didn&apos;t get a code?{' '}
          <button type="button" className="btn btn-link" onClick={onResend} disabled={sending}>
            {sending ? 'Sending...' : 'Resend verification code'}
          </button>
        </p>
      </form>
    </AuthLayout>
  );
}
