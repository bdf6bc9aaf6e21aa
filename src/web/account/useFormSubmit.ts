import { useState, type FormEvent } from 'react';
import { accountFixedMessages } from '../../shared/accountTexts.ts';
import { accountMessages } from '../../shared/accountMessages.ts';
import { isOnlySpaces } from '../../shared/passwordRules.ts';

interface Submission {
  /** A new password and its confirmation: they must match before anything is sent. */
  passwords?: { password: string; confirmation: string };
  /** The request the form makes; a rejection is a failed submit. */
  attempt(): Promise<unknown>;
  /** What to show for a failed attempt, or null when the screen shows it another way. */
  onFailure(caught: unknown): string | null;
  /** What follows a successful attempt (each screen using this moves on, so the button stays busy). */
  onSuccess(): void | Promise<void>;
}

/**
 * The submit choreography the account forms share: no page reload, passwords that must match,
 * the last error cleared and the button busy while the request runs, and on failure the button
 * freed and the error shown.
 */
export function useFormSubmit() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function submitHandler({ passwords, attempt, onFailure, onSuccess }: Submission) {
    return async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (passwords && passwords.password !== passwords.confirmation) {
        setError(accountFixedMessages.passwordsDoNotMatch);
        return;
      }
      if (passwords && isOnlySpaces(passwords.password)) {
        setError(accountMessages.passwordOnlySpaces);
        return;
      }
      setError(null);
      setBusy(true);
      try {
        await attempt();
      } catch (caught) {
        setBusy(false);
        setError(onFailure(caught));
        return;
      }
      await onSuccess();
    };
  }

  return { error, busy, submitHandler };
}
