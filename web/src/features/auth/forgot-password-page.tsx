/**
 * /forgot-password: a real password reset. Step 1 asks for the e-mail and sends a 6-digit reset
 * code; step 2 takes the code and a new password; then a 'Sign in' link. `?email=&code=` (the
 * e-mail's link) prefills the form and opens step 2 directly. The steps are forgot-password-steps.tsx;
 * this page holds which one shows, the e-mail, the last "code sent" notice and the page title.
 */
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { api } from '@avail/shared/api/api-client.ts';
import { VERIFICATION_CODE_LENGTH } from '@avail/shared/constants.ts';
import { AuthLayout } from './auth-layout.tsx';
import { DoneStep, RequestStep, ResetStep } from './forgot-password-steps.tsx';

type Step = 'request' | 'reset' | 'done';

const TITLES: Record<Step, string> = {
  request: 'Forgot your password?',
  reset: 'Reset your password',
  done: 'Password reset',
};

/** The forgot-password / reset-password screen. */
export default function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const urlEmail = (params.get('email') ?? '').trim();
  const urlCode = (params.get('code') ?? '').trim();
  const linkCode = urlCode.length === VERIFICATION_CODE_LENGTH ? urlCode : '';

  const [step, setStep] = useState<Step>(urlEmail && linkCode ? 'reset' : 'request');
  const [email, setEmail] = useState(urlEmail);
  // The link's code prefills step 2 until the owner switches to another address.
  const [initialCode, setInitialCode] = useState(linkCode);
  const [notice, setNotice] = useState({ text: '', key: 0 });
  const [doneMessage, setDoneMessage] = useState('');

  // Declared first so it captures the title from before this page set its own.
  useEffect(() => {
    const previous = document.title;
    return () => {
      document.title = previous;
    };
  }, []);
  useEffect(() => {
    document.title = `${TITLES[step]} · Avail`;
  }, [step]);

  async function sendCode() {
    const res = await api.forgotPassword(email.trim());
    setNotice((n) => ({ text: res.message, key: n.key + 1 })); // a fresh status element, so a resend is announced again
  }

  const footer = (
    <p>
      Remembered it? <Link to="/login">Back to sign in</Link>
    </p>
  );

  if (step === 'done') {
    return (
      <AuthLayout title={TITLES.done}>
        <DoneStep message={doneMessage} />
      </AuthLayout>
    );
  }

  if (step === 'request') {
    return (
      <AuthLayout title={TITLES.request} subtitle="Enter the e-mail you signed up with and we will send you a 6-digit reset code." footer={footer}>
        <RequestStep
          email={email}
          setEmail={setEmail}
          sendCode={async () => {
            await sendCode();
            setStep('reset');
          }}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={TITLES.reset}
      subtitle={
        <>
          Enter the 6-digit code from our e-mail to <strong>{email.trim()}</strong> and choose a new password.
        </>
      }
      footer={footer}
    >
      <ResetStep
        email={email}
        initialCode={initialCode}
        fromLink={Boolean(linkCode)}
        notice={notice}
        resendCode={sendCode}
        onChangeEmail={() => {
          setStep('request');
          setNotice((n) => ({ text: '', key: n.key }));
          setInitialCode('');
        }}
        onDone={(message) => {
          setDoneMessage(message);
          setStep('done');
        }}
      />
    </AuthLayout>
  );
}
