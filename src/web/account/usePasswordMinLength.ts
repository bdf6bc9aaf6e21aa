import { useEffect, useState } from 'react';
import { DEFAULT_MIN_PASSWORD_LENGTH } from '../auth/accountSession.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { accountSessionOf } from '../auth/accountSession.ts';

/** The server's minimum password length, for the browser's own check on new-password fields. */
export function usePasswordMinLength(): number {
  const session = useAuthSession();
  const [minLength, setMinLength] = useState(DEFAULT_MIN_PASSWORD_LENGTH);
  useEffect(() => {
    let current = true;
    void accountSessionOf(session)
      .passwordMinLength()
      .then((value) => current && setMinLength(value));
    return () => {
      current = false;
    };
  }, [session]);
  return minLength;
}
