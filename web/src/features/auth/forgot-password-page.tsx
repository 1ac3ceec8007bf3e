/** /forgot-password: linked from login; the reset flow itself is not part of this release. */
import { Link } from 'react-router-dom';
import { AuthLayout } from './auth-layout.tsx';

export default function ForgotPasswordPage() {
  return (
    <AuthLayout title="Forgot your password?" footer={<Link to="/login">Back to sign in</Link>}>
      <p>
        Self-service password reset is not available yet. Write to{' '}
        <a href="mailto:support@avail.app">support@avail.app</a> from the address you signed up with and we will help you
        regain access.
      </p>
    </AuthLayout>
  );
}
