/** Register (spec §2 Register, §5 register validation, §8 register messages). */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { registerSchema } from '@avail/shared';
import { useSession } from '../../data/session.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { AuthLayout } from './auth-layout.tsx';
import { FieldError } from '../../components/ui/field-error.tsx';
import { ServerGate } from '../../components/server-field.tsx';
import { PasswordField } from '../../components/password-field.tsx';

type Field = 'name' | 'email' | 'password' | 'confirmPassword';
const FIELD_OF: Record<string, Field> = { name: 'name', email: 'email', password: 'password', password_confirmation: 'confirmPassword' };

export default function RegisterPage() {
  const { register } = useSession();
  const navigate = useNavigate();
  const [form, setForm] = useState<Record<Field, string>>({ name: '', email: '', password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [general, setGeneral] = useState('');
  const [submitting, setSubmitting] = useState(false);

  function update(field: Field, value: string) {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
    setGeneral('');
  }

  function validate(): Partial<Record<Field, string>> {
    const parsed = registerSchema.safeParse({
      name: form.name,
      email: form.email,
      password: form.password,
      password_confirmation: form.confirmPassword,
    });
    const out: Partial<Record<Field, string>> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const f = FIELD_OF[String(issue.path[0])];
        if (f && !out[f]) out[f] = issue.message;
      }
    }
    return out;
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setSubmitting(true);
    const res = await register({ ...form, name: form.name.trim(), email: form.email.trim() });
    setSubmitting(false);
    if (res.success && res.requiresVerification) {
      navigate(`/verify-email?email=${encodeURIComponent(res.email ?? form.email.trim())}`, { state: { notice: res.message } });
    } else if (res.success) {
      navigate('/app/onboarding');
    } else {
      setGeneral(res.message || 'Registration failed');
    }
  }

  const input = (field: Field, label: string, type: string, autoComplete: string, placeholder?: string) => (
    <div className="field">
      <label htmlFor={`register-${field}`}>{label}</label>
      <input
        id={`register-${field}`}
        type={type}
        name={field}
        autoComplete={autoComplete}
        value={form[field]}
        placeholder={placeholder}
        aria-invalid={Boolean(errors[field])}
        aria-describedby={errors[field] ? `register-${field}-error` : undefined}
        onChange={(e) => update(field, e.target.value)}
      />
      <FieldError id={`register-${field}-error`}>{errors[field]}</FieldError>
    </div>
  );

  const password = (field: 'password' | 'confirmPassword', label: string, placeholder?: string) => (
    <PasswordField
      id={`register-${field}`}
      label={label}
      name={field}
      autoComplete="new-password"
      value={form[field]}
      placeholder={placeholder}
      error={errors[field]}
      onChange={(value) => update(field, value)}
    />
  );

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Share your free time in minutes. Free during beta."
      footer={
        <p>
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      }
    >
      <ServerGate idPrefix="register">
        <form className="form" onSubmit={onSubmit} noValidate>
          {general && <Alert kind="error">{general}</Alert>}
          {input('name', 'Full name', 'text', 'name', 'Jane Doe')}
          {input('email', 'Email', 'email', 'email', 'you@example.com')}
          {password('password', 'Password', 'At least 8 characters')}
          {password('confirmPassword', 'Confirm password')}
          <button type="submit" className="btn btn-primary btn-block" disabled={submitting || Object.values(errors).some(Boolean)}>
            {submitting ? 'Creating account...' : 'Create account'}
          </button>
        </form>
      </ServerGate>
    </AuthLayout>
  );
}
