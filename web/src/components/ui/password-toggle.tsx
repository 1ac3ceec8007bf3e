/** The show/hide control beside a password input (login, password reset). */
export function PasswordToggle({ shown, onToggle }: { shown: boolean; onToggle: () => void }) {
  return (
    <button type="button" className="input-action" onClick={onToggle} aria-label={shown ? 'Hide password' : 'Show password'} aria-pressed={shown}>
      {shown ? 'Hide' : 'Show'}
    </button>
  );
}
