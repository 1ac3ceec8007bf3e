/**
 * Live username check (spec §5 "Username"): validates with the shared schema, then asks the server
 * (POST /api/me/profile/check-username) after a 500 ms pause. Used by onboarding step 4 and /app/links.
 *
 * - `current`: the user's saved username ('' for none); the same value counts as available.
 * - `touched`: whether the user has edited the field; an untouched empty field stays quiet, a
 *   cleared one says 'Username is required'.
 */
import { useEffect, useState } from 'react';
import { USERNAME_CHECK_DEBOUNCE_MS, usernameSchema } from '@avail/shared';
import { api } from '@avail/shared/api/api-client.ts';

export type UsernameStatus = 'idle' | 'current' | 'checking' | 'available' | 'taken' | 'invalid' | 'failed';

export function useUsernameCheck(value: string, current: string, touched: boolean): { status: UsernameStatus; message: string } {
  const [state, setState] = useState<{ status: UsernameStatus; message: string }>({ status: 'idle', message: '' });

  useEffect(() => {
    if (current !== '' && value.trim() === current) {
      setState({ status: 'current', message: 'This is your current username' });
      return;
    }
    const parsed = usernameSchema.safeParse(value);
    if (!parsed.success) {
      const quiet = value === '' && !touched;
      setState(quiet ? { status: 'idle', message: '' } : { status: 'invalid', message: parsed.error.issues[0].message });
      return;
    }
    setState({ status: 'checking', message: 'Checking availability...' });
    let cancelled = false;
    const timer = setTimeout(() => {
      api
        .checkUsername(parsed.data)
        .then(({ available }) => {
          if (!cancelled) setState(available ? { status: 'available', message: 'Username is available' } : { status: 'taken', message: 'Username is already taken' });
        })
        .catch(() => {
          if (!cancelled) setState({ status: 'failed', message: 'Failed to check username availability' });
        });
    }, USERNAME_CHECK_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [value, current, touched]);

  return state;
}
