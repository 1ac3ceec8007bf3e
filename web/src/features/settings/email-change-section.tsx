/**
 * Settings → Privacy & Security → E-mail address (issue 26; docs/account-security.md "E-mail change"),
 * in two steps:
 *  1. the new address and the password (POST /me/email): a 6-digit code goes to the new address
 *     (409 `errors.email` taken, 422 `errors.password` / `errors.email`, 429 too many codes); with
 *     two-factor sign-in on (the session's user says so, or the server answered 422 with
 *     `errors.two_factor_code`) an "Authentication code" field asks for the authenticator's or a
 *     recovery code too;
 *  2. the code (POST /me/email/verify): the account moves to the new address, the session's user is
 *     read again (refreshUser) so every screen shows it, and the old address gets a notice
 *     (422 `invalid_code`, 429 after 5 wrong guesses: ask for a new code).
 * Field errors show under their field; other failures above the form (email-change-forms.tsx).
 */
import { useState } from 'react';
import { useSession } from '../../data/session.tsx';
import { EmailCodeForm, EmailRequestForm } from './email-change-forms.tsx';

type Step = { kind: 'request' } | { kind: 'code'; email: string; message: string };

export function EmailChangeSection() {
  const { user } = useSession();
  const [step, setStep] = useState<Step>({ kind: 'request' });
  const [email, setEmail] = useState('');
  const [serverAsksCode, setServerAsksCode] = useState(false);
  const askCode = serverAsksCode || Boolean(user?.two_factor_enabled);
  const [success, setSuccess] = useState('');

  return (
    <div className="account-block" role="group" aria-labelledby="email-change-title">
      <h3 id="email-change-title" className="subhead">
        E-mail address
      </h3>
      <p className="muted small">
        You sign in with <strong className="account-email">{user?.email}</strong>. A new address is confirmed with a code sent to it; the current one gets a notice.
      </p>
      {step.kind === 'request' ? (
        <EmailRequestForm
          email={email}
          onEmailChange={setEmail}
          currentEmail={user?.email ?? ''}
          askCode={askCode}
          onServerAsksCode={() => setServerAsksCode(true)}
          onEdit={() => setSuccess('')}
          onSent={(to, message) => setStep({ kind: 'code', email: to, message })}
        />
      ) : (
        <EmailCodeForm
          email={step.email}
          message={step.message}
          onChanged={(message) => {
            setStep({ kind: 'request' });
            setEmail('');
            setSuccess(message);
          }}
          onStartOver={() => setStep({ kind: 'request' })}
        />
      )}
      <p className="account-success small" role="status">
        {success}
      </p>
    </div>
  );
}
